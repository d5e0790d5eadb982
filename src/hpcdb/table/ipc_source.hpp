#pragma once
// Arrow IPC files (the file format, also called Feather v2) read by all
// ranks, each its share of the record batches (share_dealing.hpp); the files
// are memory-mapped, so a batch is read without a copy.
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/table/table_source.hpp"

namespace hpcdb {

std::unique_ptr<TableSource> open_ipc_source(const Cluster& cluster, const std::vector<std::string>& files,
                                             const TableInput& input, const std::string& label);

}  // namespace hpcdb
