#pragma once
// CSV files with a header line read by all ranks, each a byte range of the
// files' data, cut at line ends (so a quoted field may not hold a line
// break). Column types are given (TableInput::csv_types) or inferred: each
// rank infers from its own lines, the ranks agree on one type per column
// (integers and floats widen to double, anything else mixed to string) and
// a rank that inferred another type reads its lines again with the agreed
// one. Empty fields and NULL are nulls, as in DuckDB. A line with the wrong
// number of fields ends every rank with the file and the line.
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/table/table_source.hpp"

namespace hpcdb {

std::unique_ptr<TableSource> open_csv_source(const Cluster& cluster, const std::vector<std::string>& files,
                                             const TableInput& input, const std::string& label);

}  // namespace hpcdb
