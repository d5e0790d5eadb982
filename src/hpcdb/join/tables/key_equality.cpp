#include "hpcdb/join/tables/key_equality.hpp"

#include <string_view>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/column_types.hpp"

namespace hpcdb {
namespace {

__extension__ typedef __int128 Wide;

// A key column read as wide integers or as strings, whatever its width.
class KeyValues {
 public:
  explicit KeyValues(const arrow::Array& array) : array_(array) {}

  Wide integer(std::int64_t i) const {
    switch (array_.type_id()) {
      case arrow::Type::INT8: return static_cast<const arrow::Int8Array&>(array_).Value(i);
      case arrow::Type::INT16: return static_cast<const arrow::Int16Array&>(array_).Value(i);
      case arrow::Type::INT32: return static_cast<const arrow::Int32Array&>(array_).Value(i);
      case arrow::Type::INT64: return static_cast<const arrow::Int64Array&>(array_).Value(i);
      case arrow::Type::UINT8: return static_cast<const arrow::UInt8Array&>(array_).Value(i);
      case arrow::Type::UINT16: return static_cast<const arrow::UInt16Array&>(array_).Value(i);
      case arrow::Type::UINT32: return static_cast<const arrow::UInt32Array&>(array_).Value(i);
      case arrow::Type::UINT64: return static_cast<const arrow::UInt64Array&>(array_).Value(i);
      case arrow::Type::DATE32: return static_cast<const arrow::Date32Array&>(array_).Value(i);
      case arrow::Type::TIMESTAMP: return static_cast<const arrow::TimestampArray&>(array_).Value(i);
      default: throw Error("key type " + array_.type()->ToString() + " is not an integer");
    }
  }

  std::string_view string(std::int64_t i) const {
    if (array_.type_id() == arrow::Type::LARGE_STRING) return static_cast<const arrow::LargeStringArray&>(array_).GetView(i);
    return static_cast<const arrow::StringArray&>(array_).GetView(i);
  }

 private:
  const arrow::Array& array_;
};

}  // namespace

void keep_equal_rows(const arrow::Array& a, const arrow::Array& b, std::vector<std::uint8_t>& keep) {
  const KeyValues x(a), y(b);
  const bool strings = is_string_type(*a.type());
  const bool nulls = a.null_count() > 0 || b.null_count() > 0;
  for (std::int64_t i = 0; i < a.length(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (!keep[k]) continue;
    if (nulls && (a.IsNull(i) || b.IsNull(i))) {
      keep[k] = 0;
      continue;
    }
    const bool equal = strings ? x.string(i) == y.string(i) : x.integer(i) == y.integer(i);
    if (!equal) keep[k] = 0;
  }
}

}  // namespace hpcdb
