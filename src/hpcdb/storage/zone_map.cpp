#include "hpcdb/storage/zone_map.hpp"

#include <algorithm>

namespace hpcdb {
namespace {

template <class T>
void zone_ranges(const T* values, std::size_t rows, std::size_t column, std::size_t columns, std::int64_t* min,
                 std::int64_t* max) {
  for (std::size_t first = 0, zone = 0; first < rows; first += ZoneMap::kZoneRows, ++zone) {
    const std::size_t end = std::min(rows, first + ZoneMap::kZoneRows);
    T lo = values[first];
    T hi = values[first];
    for (std::size_t r = first + 1; r < end; ++r) {
      lo = std::min(lo, values[r]);
      hi = std::max(hi, values[r]);
    }
    min[zone * columns + column] = static_cast<std::int64_t>(lo);
    max[zone * columns + column] = static_cast<std::int64_t>(hi);
  }
}

}  // namespace

ZoneMap::ZoneMap(const ColumnTable& table)
    : columns_(table.columns()), zones_((table.rows() + kZoneRows - 1) / kZoneRows) {
  // Text columns: an empty range (no predicate may name them).
  min_.assign(zones_ * columns_, 0);
  max_.assign(zones_ * columns_, -1);
  const std::size_t rows = table.rows();
  for (std::size_t c = 0; c < columns_; ++c) {
    switch (table.schema().columns[c].type) {
      case ColumnType::u8: zone_ranges(table.values<std::uint8_t>(c), rows, c, columns_, min_.data(), max_.data()); break;
      case ColumnType::u16: zone_ranges(table.values<std::uint16_t>(c), rows, c, columns_, min_.data(), max_.data()); break;
      case ColumnType::i32: zone_ranges(table.values<std::int32_t>(c), rows, c, columns_, min_.data(), max_.data()); break;
      case ColumnType::i64: zone_ranges(table.values<std::int64_t>(c), rows, c, columns_, min_.data(), max_.data()); break;
      case ColumnType::text: break;
    }
  }
}

void ZoneMap::widen(std::size_t row, std::size_t column, std::int64_t value) {
  const std::size_t i = row / kZoneRows * columns_ + column;
  min_[i] = std::min(min_[i], value);
  max_[i] = std::max(max_[i], value);
}

ZoneVerdict zone_verdict(const Predicate& p, const ColumnRange& range) {
  if (p.empty() || range.empty() || p.high < range.min || p.low > range.max) return ZoneVerdict::none;
  if (p.kind == Predicate::Kind::range && p.low <= range.min && range.max <= p.high) return ZoneVerdict::all;
  return ZoneVerdict::some;
}

}  // namespace hpcdb
