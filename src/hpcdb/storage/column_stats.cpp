#include "hpcdb/storage/column_stats.hpp"

#include <algorithm>
#include <bit>

#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {

namespace {

template <class T>
void mark_present(const T* values, std::size_t rows, std::int64_t min, std::vector<std::uint64_t>& present) {
  for (std::size_t r = 0; r < rows; ++r) {
    const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - min);
    present[d >> 6] |= std::uint64_t{1} << (d & 63);
  }
}

void mark_present_values(const ColumnTable& table, std::size_t c, ColumnStats& stats) {
  const ColumnRange& r = stats.range;
  if (r.empty() || r.max - r.min >= kPresentSpan) return;
  stats.present.assign(static_cast<std::size_t>((r.max - r.min) / 64 + 1), 0);
  switch (table.schema().columns[c].type) {
    case ColumnType::u8: return mark_present(table.values<std::uint8_t>(c), table.rows(), r.min, stats.present);
    case ColumnType::u16: return mark_present(table.values<std::uint16_t>(c), table.rows(), r.min, stats.present);
    case ColumnType::i32: return mark_present(table.values<std::int32_t>(c), table.rows(), r.min, stats.present);
    case ColumnType::i64: return mark_present(table.values<std::int64_t>(c), table.rows(), r.min, stats.present);
    case ColumnType::text: break;
  }
  stats.present.clear();
}

// The 64 bits of `bits` from bit `offset` on (zeros past its end).
std::uint64_t bits_at(const std::vector<std::uint64_t>& bits, std::uint64_t offset) {
  const std::size_t w = offset / 64;
  const unsigned shift = offset % 64;
  const std::uint64_t low = w < bits.size() ? bits[w] >> shift : 0;
  const std::uint64_t high = shift != 0 && w + 1 < bits.size() ? bits[w + 1] << (64 - shift) : 0;
  return low | high;
}

}  // namespace

std::vector<ColumnStats> column_stats(const ColumnTable& table, std::size_t sample_size) {
  std::vector<ColumnStats> stats(table.columns());
  const std::size_t rows = table.rows();
  const std::size_t n = std::min(rows, sample_size);
  for (std::size_t c = 0; c < table.columns(); ++c) {
    stats[c].range = table.range(c);
    if (table.schema().columns[c].type == ColumnType::text || rows == 0) continue;
    mark_present_values(table, c, stats[c]);
    stats[c].sample.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t row = n == rows ? i : static_cast<std::size_t>(mix64(i + 1) % rows);
      stats[c].sample.push_back(table.value(row, c));
    }
  }
  return stats;
}

bool may_pass(const Predicate& p, const ColumnRange& range) {
  if (range.empty() || p.empty()) return false;
  const std::int64_t low = std::max(p.low, range.min);
  const std::int64_t high = std::min(p.high, range.max);
  if (high < low) return false;
  if (p.kind == Predicate::Kind::range) return true;
  // Any member in [low, high]: the bitmap's words over that span.
  const auto first = static_cast<std::uint64_t>(low - p.low);
  const auto last = static_cast<std::uint64_t>(high - p.low);
  for (std::uint64_t w = first / 64; w <= last / 64; ++w) {
    std::uint64_t word = p.bits[w];
    if (w == first / 64) word &= ~std::uint64_t{0} << (first % 64);
    if (w == last / 64 && last % 64 != 63) word &= (std::uint64_t{1} << (last % 64 + 1)) - 1;
    if (word != 0) return true;
  }
  return false;
}

double pass_fraction(const Predicate& p, const ColumnStats& stats) {
  if (!may_pass(p, stats.range)) return 0;
  // A predicate that may pass but passed no sampled row passes few: less
  // than one sampled row's share.
  const double floor = stats.sample.empty() ? 0.5 : 0.5 / static_cast<double>(stats.sample.size());
  if (stats.sample.empty()) {
    const double domain = static_cast<double>(stats.range.max - stats.range.min) + 1;
    return std::max(floor, std::min(1.0, static_cast<double>(p.cardinality()) / domain));
  }
  std::size_t passing = 0;
  for (std::int64_t v : stats.sample) passing += p.matches(v) ? 1 : 0;
  return std::max(floor, static_cast<double>(passing) / static_cast<double>(stats.sample.size()));
}

}  // namespace hpcdb

namespace hpcdb {

bool covers_present_values(const Predicate& p, const ColumnStats& stats) {
  if (p.kind != Predicate::Kind::set || stats.present.empty() || p.empty()) return false;
  const std::int64_t low = std::max(p.low, stats.range.min);
  const std::int64_t high = std::min(p.high, stats.range.max);
  for (std::int64_t v = low; v <= high; v += 64) {
    const auto n = static_cast<unsigned>(std::min<std::int64_t>(64, high - v + 1));
    const std::uint64_t valid = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    const std::uint64_t held = bits_at(stats.present, static_cast<std::uint64_t>(v - stats.range.min)) & valid;
    const std::uint64_t members = bits_at(p.bits, static_cast<std::uint64_t>(v - p.low)) & valid;
    if ((held & ~members) != 0) return false;
  }
  return true;
}

void note_values(ColumnStats& stats, std::int64_t value) {
  ColumnRange& r = stats.range;
  if (r.empty()) {
    r.min = r.max = value;
    stats.present.clear();
    return;
  }
  if (value < r.min || value > r.max) {
    r.min = std::min(r.min, value);
    r.max = std::max(r.max, value);
    stats.present.clear();  // its bits no longer line up; a scan then keeps set predicates as sets
    return;
  }
  if (!stats.present.empty()) {
    const auto d = static_cast<std::uint64_t>(value - r.min);
    stats.present[d >> 6] |= std::uint64_t{1} << (d & 63);
  }
}

}  // namespace hpcdb
