#pragma once
// Rows of a distributed table's share picked by local row number (Arrow's
// take kernel), and the arrays that hold a column of the share.
#include <arrow/array.h>
#include <arrow/chunked_array.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

// Column `column` of the share as one chunked array (no copy).
std::shared_ptr<arrow::ChunkedArray> share_column(const DistributedTable& table, int column);

// The values at `rows` (local row numbers), in that order, as one array.
std::shared_ptr<arrow::Array> take_rows(const arrow::ChunkedArray& column, const std::vector<std::uint64_t>& rows);
std::shared_ptr<arrow::Array> take_rows(const std::shared_ptr<arrow::Array>& column, const std::vector<std::uint64_t>& rows);

// The values as another type (Arrow's cast; Error naming `what` if they do not convert).
std::shared_ptr<arrow::Array> cast_array(const std::shared_ptr<arrow::Array>& array,
                                         const std::shared_ptr<arrow::DataType>& type, const std::string& what);

// Several arrays of one type as one.
std::shared_ptr<arrow::Array> concatenate_arrays(const std::vector<std::shared_ptr<arrow::Array>>& arrays,
                                                 const std::shared_ptr<arrow::DataType>& type);

}  // namespace hpcdb
