#include "hpcdb/storage/predicate_index.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Values of [range.min, range.max] that pass `p`, as a fraction of the range.
double pass_fraction(const Predicate& p, const ColumnRange& range) {
  if (range.empty() || p.empty()) return 0;
  const std::int64_t low = std::max(p.low, range.min);
  const std::int64_t high = std::min(p.high, range.max);
  if (high < low) return 0;
  const double domain = static_cast<double>(range.max - range.min) + 1;
  if (p.kind == Predicate::Kind::range) return (static_cast<double>(high - low) + 1) / domain;
  std::uint64_t members = 0;
  for (std::int64_t v = low; v <= high; ++v) members += p.matches(v) ? 1 : 0;
  return static_cast<double>(members) / domain;
}

}  // namespace

PredicateIndex::PredicateIndex(const ColumnTable& table, std::span<const ColumnRange> ranges,
                               std::span<const PositionedQuery> queries, std::size_t words)
    : table_(table), words_(words), unindexed_(words, 0) {
  std::size_t positions = 0;
  for (const PositionedQuery& q : queries) positions = std::max(positions, q.position + 1);
  if (positions > 64 * words) throw Error("a shared scan's query position is beyond its bitsets");
  residuals_.resize(positions);

  // Each query's indexed predicate: the one expected to pass the fewest rows
  // among those on columns whose value table stays within kMaxTableBytes.
  std::vector<std::pair<const PositionedQuery*, const Predicate*>> indexed;
  for (const PositionedQuery& q : queries) {
    const Predicate* best = nullptr;
    double best_fraction = std::numeric_limits<double>::infinity();
    bool impossible = false;
    for (const Predicate& p : q.query->predicates) {
      if (p.column >= table.columns() || table.schema().columns[p.column].type == ColumnType::text) {
        throw Error("a query has a predicate on column " + std::to_string(p.column) + ", which table " +
                    table.schema().name + " has no numbers in");
      }
      const ColumnRange& range = ranges[p.column];
      const double fraction = pass_fraction(p, range);
      if (fraction == 0) impossible = true;
      const auto domain = static_cast<double>(range.max - range.min) + 1;
      if (domain * static_cast<double>(words) * 8 > static_cast<double>(kMaxTableBytes)) continue;
      if (fraction < best_fraction) best = &p, best_fraction = fraction;
    }
    if (impossible) {
      ++stats_.pruned;
      continue;
    }
    if (best == nullptr) {
      unindexed_[q.position / 64] |= std::uint64_t{1} << (q.position % 64);
      ++stats_.unindexed;
    } else {
      indexed.emplace_back(&q, best);
      ++stats_.indexed;
    }
    for (const Predicate& p : q.query->predicates) {
      if (&p == best) continue;
      residuals_[q.position].push_back({table.data(p.column), table.schema().columns[p.column].type, &p});
      ++stats_.residual_predicates;
    }
  }

  // One value table per column with indexed predicates.
  for (const auto& [q, p] : indexed) {
    auto it = std::find_if(columns_.begin(), columns_.end(), [&](const ColumnIndex& c) { return c.column == p->column; });
    if (it == columns_.end()) {
      ColumnIndex c;
      c.column = p->column;
      c.type = table.schema().columns[p->column].type;
      c.values = table.data(p->column);
      c.min = ranges[p->column].min;
      c.domain = static_cast<std::uint64_t>(ranges[p->column].max - ranges[p->column].min) + 1;
      c.masks.assign(c.domain * words, 0);
      stats_.table_bytes += c.masks.size() * sizeof(std::uint64_t);
      columns_.push_back(std::move(c));
      it = columns_.end() - 1;
    }
    const std::int64_t low = std::max(p->low, it->min);
    const std::int64_t high = std::min(p->high, it->min + static_cast<std::int64_t>(it->domain) - 1);
    const std::uint64_t bit = std::uint64_t{1} << (q->position % 64);
    const std::size_t word = q->position / 64;
    for (std::int64_t v = low; v <= high; ++v) {
      if (p->matches(v)) it->masks[static_cast<std::size_t>(v - it->min) * words + word] |= bit;
    }
  }
}

template <class T>
void PredicateIndex::or_column(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const {
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  const std::uint64_t* table = index.masks.data();
  if (words_ == 1) {
    for (std::size_t r = 0; r < rows; ++r) {
      const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
      if (d < index.domain) masks[r] |= table[d];
    }
    return;
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    if (d >= index.domain) continue;
    const std::uint64_t* entry = table + d * words_;
    std::uint64_t* mask = masks + r * words_;
    for (std::size_t w = 0; w < words_; ++w) mask[w] |= entry[w];
  }
}

void PredicateIndex::candidates(std::size_t first, std::size_t rows, std::uint64_t* masks) const {
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(masks + r * words_, unindexed_.data(), words_ * sizeof(std::uint64_t));
  for (const ColumnIndex& c : columns_) {
    switch (c.type) {
      case ColumnType::u8: or_column<std::uint8_t>(c, first, rows, masks); break;
      case ColumnType::u16: or_column<std::uint16_t>(c, first, rows, masks); break;
      case ColumnType::i32: or_column<std::int32_t>(c, first, rows, masks); break;
      case ColumnType::i64: or_column<std::int64_t>(c, first, rows, masks); break;
      case ColumnType::text: break;
    }
  }
}

}  // namespace hpcdb
