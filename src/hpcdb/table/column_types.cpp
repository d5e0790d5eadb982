#include "hpcdb/table/column_types.hpp"

#include <arrow/type_traits.h>

#include <map>
#include <optional>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

std::shared_ptr<arrow::DataType> engine_type(const std::shared_ptr<arrow::DataType>& type) {
  if (type->id() == arrow::Type::STRING_VIEW) return arrow::utf8();
  return type;
}

bool is_supported_column_type(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::UINT8:
    case arrow::Type::UINT16:
    case arrow::Type::UINT32:
    case arrow::Type::UINT64:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE:
    case arrow::Type::BOOL:
    case arrow::Type::DATE32:
    case arrow::Type::TIMESTAMP:
    case arrow::Type::DECIMAL32:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL128:
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: return true;
    default: return false;
  }
}

void require_supported_column(const arrow::Field& field, const std::string& table) {
  if (is_supported_column_type(*field.type())) return;
  throw UsageError(table + " column '" + field.name() + "' has type " + field.type()->ToString() +
                   ", which the engine does not handle (integers of 8-64 bits, float, double, bool, date32, timestamp, "
                   "decimal32, decimal64, decimal128, string, large_string); leave the column out (read or select only the columns needed)");
}

KeyClass key_class_of(const arrow::DataType& type) {
  if (arrow::is_integer(type.id())) return KeyClass::integer;
  if (type.id() == arrow::Type::DATE32) return KeyClass::date;
  if (type.id() == arrow::Type::TIMESTAMP) return KeyClass::timestamp;
  if (is_string_type(type)) return KeyClass::string;
  return KeyClass::none;
}

bool key_types_compatible(const arrow::DataType& left, const arrow::DataType& right) {
  const KeyClass a = key_class_of(left), b = key_class_of(right);
  if (a == KeyClass::none || a != b) return false;
  if (a == KeyClass::timestamp) {
    return static_cast<const arrow::TimestampType&>(left).unit() == static_cast<const arrow::TimestampType&>(right).unit();
  }
  return true;
}

int fixed_value_bytes(const arrow::DataType& type) {
  if (type.id() == arrow::Type::BOOL) return 1;
  if (is_string_type(type)) return 0;
  return static_cast<const arrow::FixedWidthType&>(type).bit_width() / 8;
}

bool is_string_type(const arrow::DataType& type) {
  return type.id() == arrow::Type::STRING || type.id() == arrow::Type::LARGE_STRING;
}

std::shared_ptr<arrow::DataType> parse_type_name(const std::string& name, const std::string& what) {
  static const std::map<std::string, std::shared_ptr<arrow::DataType>> simple = {
      {"int8", arrow::int8()},     {"int16", arrow::int16()},   {"int32", arrow::int32()},
      {"int64", arrow::int64()},   {"uint8", arrow::uint8()},   {"uint16", arrow::uint16()},
      {"uint32", arrow::uint32()}, {"uint64", arrow::uint64()}, {"float", arrow::float32()},
      {"double", arrow::float64()}, {"bool", arrow::boolean()}, {"date32", arrow::date32()},
      {"string", arrow::utf8()},   {"large_string", arrow::large_utf8()}};
  if (auto it = simple.find(name); it != simple.end()) return it->second;
  static const std::map<std::string, arrow::TimeUnit::type> units = {
      {"s", arrow::TimeUnit::SECOND}, {"ms", arrow::TimeUnit::MILLI}, {"us", arrow::TimeUnit::MICRO}, {"ns", arrow::TimeUnit::NANO}};
  const auto inside = [&](const std::string& prefix, char close) -> std::optional<std::string> {
    if (name.size() <= prefix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0 || name.back() != close) return {};
    return name.substr(prefix.size(), name.size() - prefix.size() - 1);
  };
  if (const auto unit = inside("timestamp[", ']'); unit && units.count(*unit)) return arrow::timestamp(units.at(*unit));
  if (const auto digits = inside("decimal128(", ')')) {
    // "P,S": one or two digits each, spaces allowed after the comma.
    const std::size_t comma = digits->find(',');
    const auto number = [](std::string text) -> int {
      text.erase(0, text.find_first_not_of(' '));
      if (text.empty() || text.size() > 2 || text.find_first_not_of("0123456789") != std::string::npos) return -1;
      return std::stoi(text);
    };
    if (comma != std::string::npos && (*digits)[0] != ' ') {
      const int precision = number(digits->substr(0, comma)), scale = number(digits->substr(comma + 1));
      if (precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision) return arrow::decimal128(precision, scale);
    }
  }
  throw UsageError(what + ": unknown type '" + name +
                   "' (int8-int64, uint8-uint64, float, double, bool, date32, timestamp[s|ms|us|ns], decimal128(P,S), "
                   "string, large_string)");
}

}  // namespace hpcdb
