#include "hpcdb/storage/predicate.hpp"

#include <algorithm>
#include <bit>

namespace hpcdb {

Predicate Predicate::between(std::uint16_t column, std::int64_t low, std::int64_t high) {
  Predicate p;
  p.column = column;
  p.kind = Kind::range;
  p.low = low;
  p.high = high;
  return p;
}

Predicate Predicate::in(std::uint16_t column, std::span<const std::int64_t> values) {
  if (values.empty()) return none(column);
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  Predicate p;
  p.column = column;
  p.kind = Kind::set;
  p.low = *lo;
  p.high = *hi;
  p.bits.assign(static_cast<std::size_t>((p.high - p.low) / 64 + 1), 0);
  for (std::int64_t v : values) {
    const auto i = static_cast<std::uint64_t>(v - p.low);
    p.bits[i >> 6] |= std::uint64_t{1} << (i & 63);
  }
  if (p.cardinality() == static_cast<std::uint64_t>(p.high - p.low + 1)) {
    p.kind = Kind::range;
    p.bits.clear();
  }
  return p;
}

std::uint64_t Predicate::cardinality() const {
  if (empty()) return 0;
  if (kind == Kind::range) return static_cast<std::uint64_t>(high - low) + 1;
  std::uint64_t n = 0;
  for (std::uint64_t w : bits) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

}  // namespace hpcdb
