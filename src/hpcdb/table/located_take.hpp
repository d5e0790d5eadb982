#pragma once
// Rows of one column picked where they lie (this rank's share, or a table
// every rank holds), by their batch and row: the local half of
// row_gather.hpp without an exchange. A broadcast join takes every result
// column this way.
#include <arrow/array.h>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "hpcdb/table/row_gather.hpp"

namespace hpcdb {

// Byte buffers a column's take works in, reused from column to column.
struct TakeScratch {
  std::vector<std::byte> flags;
  std::vector<std::byte> lengths;
};

// The values of `column` at `rows`, in that order, as one array.
std::shared_ptr<arrow::Array> take_located(const ShareColumn& column, std::span<const RowLocation> rows,
                                           TakeScratch& scratch);

}  // namespace hpcdb
