#pragma once
// The column types the engine handles, and which of them can be join or
// shuffle keys. Values: signed and unsigned integers of 8-64 bits, float32
// and float64, bool, date32, timestamp (any unit and time zone), decimal32,
// decimal64 and decimal128 (Parquet decimals of up to 9 and 18 digits are
// read as the first two), string and large_string; every one may hold nulls. Keys: integers, date32,
// timestamps and strings, alone or several together.
#include <arrow/type.h>

#include <string>

namespace hpcdb {

bool is_supported_column_type(const arrow::DataType& type);

// The type the engine holds a column of `type` as: string views become
// strings (Parquet files written from Arrow's string_view, as tpchgen-cli
// writes them, are read so); every other type stays.
std::shared_ptr<arrow::DataType> engine_type(const std::shared_ptr<arrow::DataType>& type);

// Throws UsageError naming the column and the types supported, unless its
// type is one of them.
void require_supported_column(const arrow::Field& field, const std::string& table);

// How key values are compared: integers (any width and sign) with integers,
// dates with dates, timestamps with timestamps of the same unit, strings with
// strings (large or not).
enum class KeyClass { integer, date, timestamp, string, none };

KeyClass key_class_of(const arrow::DataType& type);

// Whether two key columns can be compared value by value.
bool key_types_compatible(const arrow::DataType& left, const arrow::DataType& right);

// Bytes a value takes in Arrow's layout (fixed-width types; 0 for strings, 1 for bool).
int fixed_value_bytes(const arrow::DataType& type);

bool is_string_type(const arrow::DataType& type);

// A type by the name people write: int8 ... int64, uint8 ... uint64, float,
// double, bool, date32, timestamp[s|ms|us|ns], decimal128(P,S), string,
// large_string (UsageError naming `what` otherwise).
std::shared_ptr<arrow::DataType> parse_type_name(const std::string& name, const std::string& what);

}  // namespace hpcdb
