#pragma once
// Rows of an array picked by number with Arrow's take kernel (the engine's
// own takes are located_take.hpp's; this one is the tests' reference),
// casts and concatenation of arrays.
#include <arrow/array.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hpcdb {

// The values at `rows`, in that order, as one array.
std::shared_ptr<arrow::Array> take_rows(const std::shared_ptr<arrow::Array>& column, const std::vector<std::uint64_t>& rows);

// The values as another type (Arrow's cast; Error naming `what` if they do not convert).
std::shared_ptr<arrow::Array> cast_array(const std::shared_ptr<arrow::Array>& array,
                                         const std::shared_ptr<arrow::DataType>& type, const std::string& what);

// Several arrays of one type as one.
std::shared_ptr<arrow::Array> concatenate_arrays(const std::vector<std::shared_ptr<arrow::Array>>& arrays,
                                                 const std::shared_ptr<arrow::DataType>& type);

}  // namespace hpcdb
