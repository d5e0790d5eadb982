#pragma once
// Smallest and largest value of every integer column in each zone of a
// table's rows (kZoneRows consecutive rows): a shared scan does not evaluate
// a query in a zone where one of its predicates can pass no value of the
// zone's range, skips the zone when no query is left, and does not evaluate a
// range predicate that every value of the zone passes. It pays off where a
// column's values are clustered (lineorder is kept in order-date order: a
// year is a seventh of its zones, a week a few); elsewhere it costs one
// range check per query and zone. Updates only widen a zone's range.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/predicate.hpp"

namespace hpcdb {

class ZoneMap {
 public:
  // Rows per zone: a scan's unit of work (a morsel) as well.
  static constexpr std::size_t kZoneRows = 16384;

  ZoneMap() = default;
  explicit ZoneMap(const ColumnTable& table);

  std::size_t zones() const { return zones_; }
  static std::size_t first_row(std::size_t zone) { return zone * kZoneRows; }
  // The values of `column` in `zone` (empty for text columns).
  ColumnRange range(std::size_t zone, std::size_t column) const {
    return {min_[zone * columns_ + column], max_[zone * columns_ + column]};
  }
  // Row `row` of `column` now holds `value`.
  void widen(std::size_t row, std::size_t column, std::int64_t value);

 private:
  std::size_t columns_ = 0;
  std::size_t zones_ = 0;
  std::vector<std::int64_t> min_;  // zone x column
  std::vector<std::int64_t> max_;
};

// What a predicate does in a zone whose column values lie in `range`: pass
// no row, every row, or some (a set predicate's members are not looked at:
// only its bounds).
enum class ZoneVerdict : std::uint8_t { none, some, all };
ZoneVerdict zone_verdict(const Predicate& p, const ColumnRange& range);

}  // namespace hpcdb
