#pragma once
// How the Parquet writer encodes each integer-like column (integers, dates,
// timestamps, decimals stored as integers), chosen from the column's first
// rows by the bytes each candidate would take:
//
// - dictionary: the distinct values once and each value's index in as few
//   bits as their count needs (Arrow's default; snappy on top). Chosen for
//   few distinct values (quantities, dates).
// - delta: DELTA_BINARY_PACKED, each value's difference to the one before in
//   as few bits as a miniblock of 32 needs, not compressed. Chosen for
//   ascending or narrow values (sorted keys: 5 bits a value instead of 8
//   bytes). Parquet's standard encoding since format 2.0; Arrow, DuckDB,
//   Polars and Spark (3.3 on) read it.
// - plain: the values as they are, snappy-compressed. Chosen for many
//   distinct values in runs (an order's customer repeated for each of its
//   lines), where snappy finds the repeats.
//
// Besides the bytes, the choice saves time: writing one rank's share of
// TPC-H SF10's join result a column at a time (pyarrow, one core, best of
// 3), the sorted l_orderkey took 0.30 s as delta against 0.50 s as
// dictionary-then-plain with snappy, l_partkey 0.45 against 0.76 s. Other
// columns (strings, floats, booleans) keep Arrow's default.
#include <arrow/record_batch.h>
#include <parquet/properties.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace hpcdb {

enum class ParquetValueEncoding { dictionary, delta, plain };

std::string to_string(ParquetValueEncoding encoding);

// Bytes a sample of values would take in each encoding.
struct EncodingEstimate {
  std::uint64_t dictionary = 0;  // UINT64_MAX: more distinct values than the dictionary page holds
  std::uint64_t delta = 0;
  std::uint64_t plain = 0;       // snappy-compressed
  ParquetValueEncoding choice = ParquetValueEncoding::dictionary;
};

// The estimate of consecutive non-null values, each `value_bytes` (4 or 8)
// wide in Parquet, with a dictionary page of at most `dictionary_page_bytes`.
EncodingEstimate estimate_encodings(std::span<const std::int64_t> values, int value_bytes,
                                    std::int64_t dictionary_page_bytes);

// Whether the column's values are stored as Parquet INT32 or INT64 (the
// writer's store_decimal_as_integer on), so that the choice applies; their
// width in bytes, else 0.
int integer_storage_bytes(const arrow::DataType& type);

// Up to `limit` first non-null values of column `column` of the batches,
// as 64-bit integers (the column's type as integer_storage_bytes allows).
std::vector<std::int64_t> integer_sample(const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, int column,
                                         std::size_t limit);

// Sets each integer-like column's encoding (and its dictionary and
// compression to match) from `first_rows`, the first rows to be written;
// returns the choice per column, empty names for the columns left alone
// (other types, a name two columns share, fewer than two values).
std::vector<std::string> choose_column_encodings(parquet::WriterProperties::Builder& properties,
                                                 const arrow::Schema& schema,
                                                 const std::vector<std::shared_ptr<arrow::RecordBatch>>& first_rows,
                                                 std::int64_t dictionary_page_bytes);

}  // namespace hpcdb
