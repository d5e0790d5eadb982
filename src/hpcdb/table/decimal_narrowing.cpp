#include "hpcdb/table/decimal_narrowing.hpp"

#include <arrow/buffer.h>

#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

std::int64_t power_of_ten(int exponent) {
  std::int64_t value = 1;
  for (int i = 0; i < exponent; ++i) value *= 10;
  return value;
}

// Each value's low bytes; Error (for a valid value) unless the value has at
// most `precision` digits, so that it is the same number in the narrow type.
template <class Narrow>
std::shared_ptr<arrow::Buffer> low_values(const arrow::Array& array, int precision, const std::string& what) {
  const auto n = static_cast<std::size_t>(array.length());
  const auto* wide = reinterpret_cast<const std::uint64_t*>(array.data()->buffers[1]->data());  // low, high words
  std::shared_ptr<arrow::Buffer> out = value_of(
      arrow::AllocateBuffer(static_cast<std::int64_t>(n * sizeof(Narrow)), table_memory_pool()), what);
  auto* narrow = reinterpret_cast<Narrow*>(out->mutable_data());
  const std::int64_t bound = power_of_ten(precision);  // precision <= 18
  const auto fits = [&](std::size_t i) {
    const auto low = static_cast<std::int64_t>(wide[2 * i]), high = static_cast<std::int64_t>(wide[2 * i + 1]);
    // The high word only extends the sign of the low one, and the digits fit.
    return high == (low < 0 ? -1 : 0) && low > -bound && low < bound;
  };
  bool all_fit = true;
  for (std::size_t i = 0; i < n; ++i) {
    narrow[i] = static_cast<Narrow>(wide[2 * i]);
    all_fit &= fits(i);
  }
  if (!all_fit) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!fits(i) && array.IsValid(static_cast<std::int64_t>(i))) {
        throw Error(what + ": a value of " + array.type()->ToString() + " has more digits than its precision");
      }
    }
  }
  return out;
}

}  // namespace

bool narrows_decimals(const arrow::Array& array, const arrow::DataType& type) {
  if (array.type_id() != arrow::Type::DECIMAL128 || array.offset() != 0) return false;
  const auto& to = static_cast<const arrow::DecimalType&>(type);
  if (type.id() == arrow::Type::DECIMAL64 ? to.precision() > 18 : type.id() != arrow::Type::DECIMAL32 || to.precision() > 9) {
    return false;
  }
  return static_cast<const arrow::DecimalType&>(*array.type()).scale() == to.scale();
}

std::shared_ptr<arrow::Array> narrow_decimals(const arrow::Array& array, const std::shared_ptr<arrow::DataType>& type,
                                              const std::string& what) {
  const int precision = static_cast<const arrow::DecimalType&>(*type).precision();
  std::shared_ptr<arrow::Buffer> values = type->id() == arrow::Type::DECIMAL64
                                              ? low_values<std::int64_t>(array, precision, what)
                                              : low_values<std::int32_t>(array, precision, what);
  return arrow::MakeArray(arrow::ArrayData::Make(type, array.length(), {array.data()->buffers[0], std::move(values)},
                                                 array.null_count()));
}

}  // namespace hpcdb
