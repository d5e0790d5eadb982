#include "hpcdb/table/decimal_narrowing.hpp"

#include <arrow/buffer.h>

#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

template <class Narrow>
std::shared_ptr<arrow::Buffer> low_values(const arrow::Array& array, const std::string& what) {
  const auto n = static_cast<std::size_t>(array.length());
  const auto* wide = reinterpret_cast<const std::uint64_t*>(array.data()->buffers[1]->data());  // low, high words
  std::shared_ptr<arrow::Buffer> out = value_of(
      arrow::AllocateBuffer(static_cast<std::int64_t>(n * sizeof(Narrow)), table_memory_pool()), what);
  auto* narrow = reinterpret_cast<Narrow*>(out->mutable_data());
  bool fits = true;
  for (std::size_t i = 0; i < n; ++i) {
    const auto low = static_cast<std::int64_t>(wide[2 * i]);
    const auto high = static_cast<std::int64_t>(wide[2 * i + 1]);
    narrow[i] = static_cast<Narrow>(low);
    // A value fits when the high word only extends the sign of the narrow one.
    fits &= high == (low < 0 ? -1 : 0) && static_cast<std::int64_t>(narrow[i]) == low;
  }
  if (!fits) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto low = static_cast<std::int64_t>(wide[2 * i]), high = static_cast<std::int64_t>(wide[2 * i + 1]);
      const bool bad = high != (low < 0 ? -1 : 0) || static_cast<std::int64_t>(static_cast<Narrow>(low)) != low;
      if (bad && array.IsValid(static_cast<std::int64_t>(i))) {
        throw Error(what + ": a value of " + array.type()->ToString() + " has more digits than its precision");
      }
    }
  }
  return out;
}

}  // namespace

bool narrows_decimals(const arrow::Array& array, const arrow::DataType& type) {
  if (array.type_id() != arrow::Type::DECIMAL128 || array.offset() != 0) return false;
  if (type.id() != arrow::Type::DECIMAL64 && type.id() != arrow::Type::DECIMAL32) return false;
  return static_cast<const arrow::DecimalType&>(*array.type()).scale() == static_cast<const arrow::DecimalType&>(type).scale();
}

std::shared_ptr<arrow::Array> narrow_decimals(const arrow::Array& array, const std::shared_ptr<arrow::DataType>& type,
                                              const std::string& what) {
  std::shared_ptr<arrow::Buffer> values = type->id() == arrow::Type::DECIMAL64 ? low_values<std::int64_t>(array, what)
                                                                              : low_values<std::int32_t>(array, what);
  return arrow::MakeArray(arrow::ArrayData::Make(type, array.length(), {array.data()->buffers[0], std::move(values)},
                                                 array.null_count()));
}

}  // namespace hpcdb
