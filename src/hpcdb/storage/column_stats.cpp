#include "hpcdb/storage/column_stats.hpp"

#include <algorithm>
#include <bit>

#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {

std::vector<ColumnStats> column_stats(const ColumnTable& table, std::size_t sample_size) {
  std::vector<ColumnStats> stats(table.columns());
  const std::size_t rows = table.rows();
  const std::size_t n = std::min(rows, sample_size);
  for (std::size_t c = 0; c < table.columns(); ++c) {
    stats[c].range = table.range(c);
    if (table.schema().columns[c].type == ColumnType::text || rows == 0) continue;
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
