#include "hpcdb/table/row_keys.hpp"

#include <arrow/array.h>
#include <arrow/type_traits.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/column_types.hpp"
#include "hpcdb/table/key_hash.hpp"

namespace hpcdb {
namespace {

// The column's values as signed 64-bit numbers (uint64 by its bits).
template <class ArrowType>
void integer_values(const arrow::Array& array, std::uint64_t* out) {
  using CType = typename ArrowType::c_type;
  const CType* values = static_cast<const arrow::NumericArray<ArrowType>&>(array).raw_values();
  const auto n = static_cast<std::size_t>(array.length());
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[i]));
}

template <>
void integer_values<arrow::UInt64Type>(const arrow::Array& array, std::uint64_t* out) {
  const std::uint64_t* values = static_cast<const arrow::UInt64Array&>(array).raw_values();
  std::copy(values, values + array.length(), out);
}

void column_values(const arrow::Array& array, std::uint64_t* out) {
  switch (array.type_id()) {
    case arrow::Type::INT8: return integer_values<arrow::Int8Type>(array, out);
    case arrow::Type::INT16: return integer_values<arrow::Int16Type>(array, out);
    case arrow::Type::INT32: return integer_values<arrow::Int32Type>(array, out);
    case arrow::Type::INT64: return integer_values<arrow::Int64Type>(array, out);
    case arrow::Type::UINT8: return integer_values<arrow::UInt8Type>(array, out);
    case arrow::Type::UINT16: return integer_values<arrow::UInt16Type>(array, out);
    case arrow::Type::UINT32: return integer_values<arrow::UInt32Type>(array, out);
    case arrow::Type::UINT64: return integer_values<arrow::UInt64Type>(array, out);
    case arrow::Type::DATE32: return integer_values<arrow::Date32Type>(array, out);
    case arrow::Type::TIMESTAMP: return integer_values<arrow::TimestampType>(array, out);
    default: throw Error("a key column of type " + array.type()->ToString() + " cannot be used directly");
  }
}

template <class StringArray>
void string_hashes(const arrow::Array& array, std::uint64_t* out) {
  const auto& strings = static_cast<const StringArray&>(array);
  const auto* offsets = strings.raw_value_offsets();
  const std::uint8_t* data = strings.raw_data();
  for (std::int64_t i = 0; i < array.length(); ++i) {
    out[i] = hash_bytes(data + offsets[i], static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
  }
}

void column_hashes(const arrow::Array& array, std::uint64_t* out) {
  if (array.type_id() == arrow::Type::STRING) return string_hashes<arrow::StringArray>(array, out);
  if (array.type_id() == arrow::Type::LARGE_STRING) return string_hashes<arrow::LargeStringArray>(array, out);
  column_values(array, out);
  for (std::int64_t i = 0; i < array.length(); ++i) out[i] = hash_integer(out[i]);
}

void mark_nulls(const arrow::Array& array, std::uint8_t* valid) {
  if (array.null_count() == 0) return;
  for (std::int64_t i = 0; i < array.length(); ++i) {
    if (array.IsNull(i)) valid[i] = 0;
  }
}

}  // namespace

KeyEncoding key_encoding_for(const std::vector<std::shared_ptr<arrow::DataType>>& key_types) {
  if (key_types.size() == 1 && key_class_of(*key_types[0]) != KeyClass::string) return KeyEncoding::direct;
  return KeyEncoding::hashed;
}

RowKeys row_keys(const DistributedTable& table, const std::vector<int>& key_columns, KeyEncoding encoding,
                 unsigned hash_bits) {
  RowKeys result;
  const auto rows = static_cast<std::size_t>(table.rows());
  result.keys.assign(rows, 0);
  result.valid.assign(rows, 1);
  std::vector<std::uint64_t> column(encoding == KeyEncoding::hashed ? rows : 0);
  std::size_t at = 0;
  for (const auto& batch : table.batches) {
    const auto n = static_cast<std::size_t>(batch->num_rows());
    for (std::size_t k = 0; k < key_columns.size(); ++k) {
      const arrow::Array& array = *batch->column(key_columns[k]);
      mark_nulls(array, result.valid.data() + at);
      if (encoding == KeyEncoding::direct) {
        column_values(array, result.keys.data() + at);
        continue;
      }
      column_hashes(array, column.data() + at);
      std::uint64_t* keys = result.keys.data() + at;
      for (std::size_t i = 0; i < n; ++i) keys[i] = k == 0 ? column[at + i] : combine_hashes(keys[i], column[at + i]);
    }
    at += n;
  }
  if (encoding == KeyEncoding::hashed && hash_bits < 64) {
    const std::uint64_t mask = (std::uint64_t{1} << hash_bits) - 1;
    for (std::uint64_t& key : result.keys) key &= mask;
  }
  for (std::uint8_t v : result.valid) result.nulls += v == 0 ? 1 : 0;
  return result;
}

}  // namespace hpcdb
