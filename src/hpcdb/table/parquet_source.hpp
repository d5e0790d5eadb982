#pragma once
// Parquet files read by all ranks, each its share of the row groups
// (share_dealing.hpp): every rank reads the footers of every ranks-th file,
// the row groups' row counts are gathered, and every rank reads its groups
// with the projected columns. The files must share one schema.
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/table/table_source.hpp"

namespace hpcdb {

std::unique_ptr<TableSource> open_parquet_source(const Cluster& cluster, const std::vector<std::string>& files,
                                                 const TableInput& input, const std::string& label);

}  // namespace hpcdb
