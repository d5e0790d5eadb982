#pragma once
// Decimal128 values as decimal64 or decimal32 of the same scale, for a
// Parquet column whose stored Arrow schema says decimal128 while its
// precision fits 64 (or 32) bits (parquet_source.cpp): a copy of each
// value's low bytes, checked to lose nothing, instead of Arrow's general
// cast (which rescales every value through 128-bit arithmetic).
#include <arrow/array.h>

#include <memory>
#include <string>

namespace hpcdb {

// Whether narrow_decimals() takes `array` to `type` (decimal128 to decimal64
// or decimal32 of the same scale, the array not a slice).
bool narrows_decimals(const arrow::Array& array, const arrow::DataType& type);

// Error naming `what` for a value that does not fit.
std::shared_ptr<arrow::Array> narrow_decimals(const arrow::Array& array, const std::shared_ptr<arrow::DataType>& type,
                                              const std::string& what);

}  // namespace hpcdb
