#pragma once
// A predicate on one integer column of a table: a range (low <= v <= high:
// =, <, <=, between) or a set of values (IN, or the keys a join found), kept
// as a bitmap over [low, high]. A query's predicates are a conjunction.
#include <cstdint>
#include <span>
#include <vector>

namespace hpcdb {

struct Predicate {
  enum class Kind : std::uint8_t { range = 0, set = 1 };
  std::uint16_t column = 0;
  Kind kind = Kind::range;
  std::int64_t low = 0;
  std::int64_t high = -1;  // high < low: matches nothing
  std::vector<std::uint64_t> bits;  // set: bit v - low for each member v

  static Predicate between(std::uint16_t column, std::int64_t low, std::int64_t high);
  static Predicate equals(std::uint16_t column, std::int64_t v) { return between(column, v, v); }
  static Predicate none(std::uint16_t column) { return between(column, 1, 0); }
  // The set of `values` (any order, duplicates allowed); a range when they
  // are contiguous (cheaper to check), none when empty.
  static Predicate in(std::uint16_t column, std::span<const std::int64_t> values);

  bool matches(std::int64_t v) const {
    if (v < low || v > high) return false;
    if (kind == Kind::range) return true;
    const auto i = static_cast<std::uint64_t>(v - low);
    return (bits[i >> 6] >> (i & 63)) & 1;
  }
  bool empty() const { return high < low; }
  // Values that match (a range's width; a set's members).
  std::uint64_t cardinality() const;
};

}  // namespace hpcdb
