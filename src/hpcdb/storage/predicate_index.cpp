#include "hpcdb/storage/predicate_index.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

const Predicate* PredicateIndex::indexable(const StorageQuery& query, const ColumnTable& table,
                                           std::span<const ColumnStats> stats, std::size_t words, double& fraction) {
  const Predicate* best = nullptr;
  double best_fraction = std::numeric_limits<double>::infinity();
  fraction = 1;
  for (const Predicate& p : query.predicates) {
    if (p.column >= table.columns() || table.schema().columns[p.column].type == ColumnType::text) {
      throw Error("a query has a predicate on column " + std::to_string(p.column) + ", which table " +
                  table.schema().name + " has no numbers in");
    }
    const ColumnRange& range = stats[p.column].range;
    const double f = pass_fraction(p, stats[p.column]);
    if (f == 0) {
      fraction = 0;
      return nullptr;
    }
    const auto domain = static_cast<double>(range.max - range.min) + 1;
    if (domain * static_cast<double>(words) * 8 > static_cast<double>(kMaxTableBytes)) continue;
    if (f < best_fraction) best = &p, best_fraction = f;
  }
  if (best != nullptr) fraction = best_fraction;
  return best;
}

PredicateIndex::PredicateIndex(const ColumnTable& table, std::span<const ColumnStats> stats,
                               std::span<const PositionedQuery> queries, std::size_t words)
    : table_(table), words_(words), unindexed_(words, 0) {
  std::size_t positions = 0;
  for (const PositionedQuery& q : queries) positions = std::max(positions, q.position + 1);
  if (positions > 64 * words) throw Error("a shared scan's query position is beyond its bitsets");
  residuals_.resize(positions);
  residual_mask_.assign(words, 0);

  // Each query's indexed predicate: the one expected to pass the fewest rows
  // among those on columns whose value table stays within kMaxTableBytes.
  std::vector<std::pair<const PositionedQuery*, const Predicate*>> indexed;
  for (const PositionedQuery& q : queries) {
    double fraction = 1;
    const Predicate* best = indexable(*q.query, table, stats, words, fraction);
    if (fraction == 0) {
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
    std::vector<std::pair<double, const Predicate*>> residual;
    for (const Predicate& p : q.query->predicates) {
      if (&p != best) residual.emplace_back(pass_fraction(p, stats[p.column]), &p);
    }
    std::stable_sort(residual.begin(), residual.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [share, p] : residual) {
      residuals_[q.position].push_back({table.data(p->column), table.schema().columns[p->column].type, p});
      ++stats_.residual_predicates;
    }
    if (!residual.empty()) {
      with_residuals_.push_back(q.position);
      residual_mask_[q.position / 64] |= std::uint64_t{1} << (q.position % 64);
    }
  }

  // One value table per column with indexed predicates.
  std::vector<std::vector<const Predicate*>> per_column;
  for (const auto& [q, p] : indexed) {
    const auto column = p->column;  // clang before 16 cannot capture a structured binding (make fuzz)
    auto it = std::find_if(columns_.begin(), columns_.end(), [column](const ColumnIndex& c) { return c.column == column; });
    if (it == columns_.end()) {
      ColumnIndex c;
      c.column = p->column;
      c.type = table.schema().columns[p->column].type;
      c.values = table.data(p->column);
      c.min = stats[p->column].range.min;
      c.domain = static_cast<std::uint64_t>(stats[p->column].range.max - stats[p->column].range.min) + 1;
      columns_.push_back(std::move(c));
      per_column.emplace_back();
      it = columns_.end() - 1;
    }
    it->positions.push_back(q->position);
    per_column[static_cast<std::size_t>(it - columns_.begin())].push_back(p);
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) build_column(columns_[i], per_column[i]);
}

void PredicateIndex::build_column(ColumnIndex& c, const std::vector<const Predicate*>& predicates) {
  const std::size_t k = c.positions.size();
  c.entry_bytes = k <= 8 ? 1 : k <= 16 ? 2 : k <= 32 ? 4 : 8 * ((k + 63) / 64);
  c.entries.assign(c.domain * c.entry_bytes, 0);
  for (std::size_t i = 0; i < k; ++i) {
    const Predicate& p = *predicates[i];
    const std::int64_t low = std::max(p.low, c.min);
    const std::int64_t high = std::min(p.high, c.min + static_cast<std::int64_t>(c.domain) - 1);
    const auto bit = static_cast<std::uint8_t>(1u << (i % 8));
    for (std::int64_t v = low; v <= high; ++v) {
      if (p.matches(v)) c.entries[static_cast<std::size_t>(v - c.min) * c.entry_bytes + i / 8] |= bit;
    }
  }
  c.expand.assign(c.entry_bytes * 256 * words_, 0);
  for (std::size_t byte = 0; byte < c.entry_bytes; ++byte) {
    for (std::size_t value = 0; value < 256; ++value) {
      std::uint64_t* out = c.expand.data() + (byte * 256 + value) * words_;
      for (std::size_t j = 0; j < 8; ++j) {
        const std::size_t local = 8 * byte + j;
        if ((value >> j) & 1 && local < k) out[c.positions[local] / 64] |= std::uint64_t{1} << (c.positions[local] % 64);
      }
    }
  }
  stats_.table_bytes += c.entries.size() + c.expand.size() * sizeof(std::uint64_t);
}

template <class T, std::size_t kEntryBytes>
void PredicateIndex::or_column_one_word(const ColumnIndex& index, std::size_t first, std::size_t rows,
                                        std::uint64_t* masks) const {
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  const std::uint8_t* entries = index.entries.data();
  const std::uint64_t* expand = index.expand.data();
  for (std::size_t r = 0; r < rows; ++r) {
    const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    if (d >= index.domain) continue;
    const std::uint8_t* entry = entries + d * kEntryBytes;
    std::uint64_t m = 0;
    for (std::size_t b = 0; b < kEntryBytes; ++b) m |= expand[b * 256 + entry[b]];
    masks[r] |= m;
  }
}

template <class T>
void PredicateIndex::or_column(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const {
  if (words_ == 1) {
    switch (index.entry_bytes) {
      case 1: return or_column_one_word<T, 1>(index, first, rows, masks);
      case 2: return or_column_one_word<T, 2>(index, first, rows, masks);
      case 4: return or_column_one_word<T, 4>(index, first, rows, masks);
      case 8: return or_column_one_word<T, 8>(index, first, rows, masks);
      default: break;
    }
  }
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  for (std::size_t r = 0; r < rows; ++r) {
    const auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    if (d >= index.domain) continue;
    const std::uint8_t* entry = index.entries.data() + d * index.entry_bytes;
    std::uint64_t* mask = masks + r * words_;
    for (std::size_t b = 0; b < index.entry_bytes; ++b) {
      if (entry[b] == 0) continue;
      const std::uint64_t* bits = index.expand.data() + (b * 256 + entry[b]) * words_;
      for (std::size_t w = 0; w < words_; ++w) mask[w] |= bits[w];
    }
  }
}

std::uint64_t PredicateIndex::check_residuals(std::size_t first, std::size_t rows, std::uint64_t* masks,
                                              Scratch& scratch) const {
  const std::size_t positions = residuals_.size();
  scratch.rows.resize(positions * kBlockRows);
  scratch.counts.assign(positions, 0);
  std::uint16_t* lists = scratch.rows.data();
  std::uint16_t* counts = scratch.counts.data();
  std::uint64_t candidates = 0;
  // Each candidate (row, query) with residuals goes to that query's list
  // and loses its bit until its predicates pass.
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t w = 0; w < words_; ++w) {
      std::uint64_t& mask = masks[r * words_ + w];
      std::uint64_t pending = mask & residual_mask_[w];
      mask &= ~pending;
      while (pending != 0) {
        const std::size_t position = 64 * w + static_cast<std::size_t>(std::countr_zero(pending));
        pending &= pending - 1;
        lists[position * kBlockRows + counts[position]++] = static_cast<std::uint16_t>(r);
        ++candidates;
      }
    }
  }
  for (std::size_t position : with_residuals_) {
    std::uint16_t* list = lists + position * kBlockRows;
    std::size_t n = counts[position];
    for (const BoundPredicate& b : residuals_[position]) {
      if (n == 0) break;
      n = keep_passing(b, first, list, n);
    }
    const std::size_t word = position / 64;
    const std::uint64_t bit = std::uint64_t{1} << (position % 64);
    for (std::size_t i = 0; i < n; ++i) masks[list[i] * words_ + word] |= bit;
  }
  return candidates;
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
