#include "hpcdb/storage/predicate_index.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

namespace {

void check_column(const ColumnTable& table, const Predicate& p) {
  if (p.column >= table.columns() || table.schema().columns[p.column].type == ColumnType::text) {
    throw Error("a query has a predicate on column " + std::to_string(p.column) + ", which table " +
                table.schema().name + " has no numbers in");
  }
}

bool fits_table(const ColumnRange& range, std::size_t words) {
  const auto domain = static_cast<double>(range.max - range.min) + 1;
  return domain * static_cast<double>(words) * 8 <= static_cast<double>(PredicateIndex::kMaxTableBytes);
}

bool impossible(const ColumnTable& table, std::span<const ColumnStats> stats, const StorageQuery& q) {
  bool none = false;
  for (const Predicate& p : q.predicates) {
    check_column(table, p);
    none |= pass_fraction(p, stats[p.column]) == 0;
  }
  return none;
}

}  // namespace

IndexShape PredicateIndex::shape(const ColumnTable& table, std::span<const ColumnStats> stats,
                                 std::span<const PositionedQuery> queries, std::size_t words) {
  IndexShape shape;
  std::vector<std::uint16_t> columns;
  for (const PositionedQuery& q : queries) {
    if (impossible(table, stats, *q.query)) continue;
    double indexed = 1;
    std::size_t residuals = 0;
    for (const Predicate& p : q.query->predicates) {
      const ColumnStats& s = stats[p.column];
      if (!fits_table(s.range, words)) {
        ++residuals;
        continue;
      }
      indexed *= pass_fraction(p, s);
      if (std::find(columns.begin(), columns.end(), p.column) != columns.end()) continue;
      columns.push_back(p.column);
      shape.table_values += static_cast<double>(s.range.max - s.range.min) + 1;
    }
    shape.residual_checks += indexed * static_cast<double>(residuals);
  }
  shape.columns = columns.size();
  return shape;
}

PredicateIndex::PredicateIndex(const ColumnTable& table, std::span<const ColumnStats> stats,
                               std::span<const PositionedQuery> queries, std::size_t words)
    : table_(table), words_(words), live_(words, 0) {
  std::size_t positions = 0;
  for (const PositionedQuery& q : queries) positions = std::max(positions, q.position + 1);
  if (positions > 64 * words) throw Error("a shared scan's query position is beyond its bitsets");
  residuals_.resize(positions);
  residual_mask_.assign(words, 0);

  // Each query's predicates: into the value table of their column, or, on a
  // column too wide for one, residual.
  std::map<std::uint16_t, std::vector<Constraint>> per_column;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const PositionedQuery& q = queries[i];
    if (impossible(table, stats, *q.query)) {
      ++stats_.pruned;
      continue;
    }
    live_[q.position / 64] |= std::uint64_t{1} << (q.position % 64);
    std::vector<std::pair<double, const Predicate*>> residual;
    for (const Predicate& p : q.query->predicates) {
      if (!fits_table(stats[p.column].range, words)) {
        residual.emplace_back(pass_fraction(p, stats[p.column]), &p);
        continue;
      }
      std::vector<Constraint>& constraints = per_column[p.column];
      if (constraints.empty() || constraints.back().query != i) constraints.push_back({i, {}});
      constraints.back().predicates.push_back(&p);
      ++stats_.indexed;
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

  for (const auto& [column, constraints] : per_column) {
    ColumnIndex c;
    c.column = column;
    c.type = table.schema().columns[column].type;
    c.values = table.data(column);
    c.min = stats[column].range.min;
    c.domain = static_cast<std::uint64_t>(stats[column].range.max - stats[column].range.min) + 1;
    c.free = live_;
    for (const Constraint& k : constraints) {
      const std::size_t position = queries[k.query].position;
      c.positions.push_back(position);
      c.free[position / 64] &= ~(std::uint64_t{1} << (position % 64));
    }
    build_column(c, constraints);
    columns_.push_back(std::move(c));
  }
  stats_.columns = columns_.size();
}

// Calls f(value - c.min) for every value of c's range that passes all of
// the constraint's predicates: a set's members, a range's values.
template <class F>
void PredicateIndex::for_each_passing(const Constraint& k, const ColumnIndex& c, F&& f) {
  std::int64_t low = c.min;
  std::int64_t high = c.min + static_cast<std::int64_t>(c.domain) - 1;
  for (const Predicate* p : k.predicates) {
    low = std::max(low, p->low);
    high = std::min(high, p->high);
  }
  const Predicate& first = *k.predicates.front();
  const auto rest_pass = [&](std::int64_t v) {
    for (std::size_t i = 1; i < k.predicates.size(); ++i) {
      if (!k.predicates[i]->matches(v)) return false;
    }
    return true;
  };
  if (first.kind == Predicate::Kind::range || low > high) {
    for (std::int64_t v = low; v <= high; ++v) {
      if (rest_pass(v)) f(static_cast<std::size_t>(v - c.min));
    }
    return;
  }
  // A set: its members' bits in [low, high], word by word.
  const auto from = static_cast<std::uint64_t>(low - first.low);
  const auto to = static_cast<std::uint64_t>(high - first.low);
  for (std::uint64_t w = from / 64; w <= to / 64; ++w) {
    for (std::uint64_t bits = first.bits[w]; bits != 0; bits &= bits - 1) {
      const std::uint64_t i = 64 * w + static_cast<std::uint64_t>(std::countr_zero(bits));
      if (i < from || i > to) continue;
      const std::int64_t v = first.low + static_cast<std::int64_t>(i);
      if (rest_pass(v)) f(static_cast<std::size_t>(v - c.min));
    }
  }
}

void PredicateIndex::build_column(ColumnIndex& c, const std::vector<Constraint>& constraints) {
  const std::size_t k = constraints.size();
  if (k > 16) {
    // Entries in the batch's bits; one more, all zero, for values outside
    // the range (updates may have added some since the range was taken).
    c.direct = true;
    c.direct_entries.assign((c.domain + 1) * words_, 0);
    for (std::size_t i = 0; i < k; ++i) {
      const std::size_t position = c.positions[i];
      for_each_passing(constraints[i], c, [&](std::size_t d) {
        c.direct_entries[d * words_ + position / 64] |= std::uint64_t{1} << (position % 64);
      });
    }
    if (words_ == 1 && c.direct_entries.size() * sizeof(std::uint64_t) > kCodeAboveBytes) code_column(c);
    stats_.table_bytes += c.direct_entries.size() * sizeof(std::uint64_t) + c.codes.size() +
                          c.patterns.size() * sizeof(std::uint64_t);
    return;
  }
  c.entry_bytes = k <= 8 ? 1 : 2;
  c.entries.assign((c.domain + 1) * c.entry_bytes, 0);
  for (std::size_t i = 0; i < k; ++i) {
    const auto bit = static_cast<std::uint8_t>(1u << (i % 8));
    for_each_passing(constraints[i], c, [&](std::size_t d) { c.entries[d * c.entry_bytes + i / 8] |= bit; });
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

// Replaces a one-word direct table by codes into its distinct entries, if
// there are at most 65,536 of them.
void PredicateIndex::code_column(ColumnIndex& c) {
  constexpr std::size_t kMaxPatterns = std::size_t{1} << 16;
  std::unordered_map<std::uint64_t, std::uint16_t> code_of;
  std::vector<std::uint16_t> codes(c.direct_entries.size());
  for (std::size_t d = 0; d < c.direct_entries.size(); ++d) {
    const auto [it, added] = code_of.try_emplace(c.direct_entries[d], static_cast<std::uint16_t>(code_of.size()));
    if (added && code_of.size() > kMaxPatterns) return;
    codes[d] = it->second;
  }
  c.patterns.resize(code_of.size());
  for (const auto& [bits, code] : code_of) c.patterns[code] = bits | c.free[0];
  c.code_bytes = code_of.size() <= 256 ? 1 : 2;
  c.codes.resize(codes.size() * c.code_bytes);
  if (c.code_bytes == 1) {
    std::copy(codes.begin(), codes.end(), c.codes.begin());
  } else {
    std::memcpy(c.codes.data(), codes.data(), c.codes.size());
  }
  c.direct_entries = {};
  ++stats_.coded;
}

template <class T, class Code>
void PredicateIndex::and_column_coded(const ColumnIndex& index, std::size_t first, std::size_t rows,
                                      std::uint64_t* masks) const {
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  const Code* codes = reinterpret_cast<const Code*>(index.codes.data());
  const std::uint64_t* patterns = index.patterns.data();
  for (std::size_t r = 0; r < rows; ++r) {
    auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    d = d < index.domain ? d : index.domain;
    masks[r] &= patterns[codes[d]];
  }
}

template <class T>
void PredicateIndex::and_column_direct(const ColumnIndex& index, std::size_t first, std::size_t rows,
                                       std::uint64_t* masks) const {
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  const std::uint64_t* entries = index.direct_entries.data();
  if (words_ == 1) {
    const std::uint64_t free = index.free[0];
    for (std::size_t r = 0; r < rows; ++r) {
      auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
      d = d < index.domain ? d : index.domain;
      masks[r] &= entries[d] | free;
    }
    return;
  }
  for (std::size_t r = 0; r < rows; ++r) {
    auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    d = d < index.domain ? d : index.domain;
    for (std::size_t w = 0; w < words_; ++w) masks[r * words_ + w] &= entries[d * words_ + w] | index.free[w];
  }
}

// masks[r] &= (the column's queries that row r's value passes) | (the queries
// not constrained on it); out-of-range values find the zero entry.
template <class T, std::size_t kEntryBytes>
void PredicateIndex::and_column_one_word(const ColumnIndex& index, std::size_t first, std::size_t rows,
                                         std::uint64_t* masks) const {
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  const std::uint8_t* entries = index.entries.data();
  const std::uint64_t* expand = index.expand.data();
  const std::uint64_t free = index.free[0];
  for (std::size_t r = 0; r < rows; ++r) {
    auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    d = d < index.domain ? d : index.domain;
    const std::uint8_t* entry = entries + d * kEntryBytes;
    std::uint64_t m = free;
    for (std::size_t b = 0; b < kEntryBytes; ++b) m |= expand[b * 256 + entry[b]];
    masks[r] &= m;
  }
}

template <class T>
void PredicateIndex::and_column(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const {
  if (index.code_bytes == 1) return and_column_coded<T, std::uint8_t>(index, first, rows, masks);
  if (index.code_bytes == 2) return and_column_coded<T, std::uint16_t>(index, first, rows, masks);
  if (index.direct) return and_column_direct<T>(index, first, rows, masks);
  if (words_ == 1) {
    switch (index.entry_bytes) {
      case 1: return and_column_one_word<T, 1>(index, first, rows, masks);
      case 2: return and_column_one_word<T, 2>(index, first, rows, masks);
      default: break;
    }
  }
  const T* values = reinterpret_cast<const T*>(index.values) + first;
  std::vector<std::uint64_t> passing(words_);
  for (std::size_t r = 0; r < rows; ++r) {
    auto d = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[r]) - index.min);
    d = d < index.domain ? d : index.domain;
    const std::uint8_t* entry = index.entries.data() + d * index.entry_bytes;
    std::copy(index.free.begin(), index.free.end(), passing.begin());
    for (std::size_t b = 0; b < index.entry_bytes; ++b) {
      if (entry[b] == 0) continue;
      const std::uint64_t* bits = index.expand.data() + (b * 256 + entry[b]) * words_;
      for (std::size_t w = 0; w < words_; ++w) passing[w] |= bits[w];
    }
    std::uint64_t* mask = masks + r * words_;
    for (std::size_t w = 0; w < words_; ++w) mask[w] &= passing[w];
  }
}

std::uint64_t PredicateIndex::check_residuals(std::size_t first, std::size_t rows, std::uint64_t* masks,
                                              Scratch& scratch) const {
  if (with_residuals_.empty()) return 0;
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
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(masks + r * words_, live_.data(), words_ * sizeof(std::uint64_t));
  for (const ColumnIndex& c : columns_) {
    switch (c.type) {
      case ColumnType::u8: and_column<std::uint8_t>(c, first, rows, masks); break;
      case ColumnType::u16: and_column<std::uint16_t>(c, first, rows, masks); break;
      case ColumnType::i32: and_column<std::int32_t>(c, first, rows, masks); break;
      case ColumnType::i64: and_column<std::int64_t>(c, first, rows, masks); break;
      case ColumnType::text: break;
    }
  }
}

}  // namespace hpcdb
