#include "hpcdb/storage/scan_plan.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Rough costs in nanoseconds per row, from instruction counts of the
// kernels (docs/storage-and-ssb.md): they only need to order the two ways.
constexpr double kDenseRange = 0.25;      // one range predicate over a row, SIMD
constexpr double kListRows = 0.3;         // turning the passing bytes into a row list
constexpr double kFirstSet = 1.0;         // a set predicate over every row, into a row list
constexpr double kSetLookup = 2.0;        // one more set predicate on a listed row
constexpr double kMarkRow = 0.5;          // setting a query's bit for a passing row
constexpr double kIndexLookup = 2.5;      // one value-table lookup per row and indexed column
constexpr double kIndexWord = 0.5;        // per bitset word of each lookup
constexpr double kResidual = 3.0;         // one residual predicate on a candidate (sorted out by query first)
constexpr double kIndexBuildValue = 0.5;  // per value of a column's domain, to build its value table

bool is_range(const Predicate& p) { return p.kind == Predicate::Kind::range; }

}  // namespace

Evaluation parse_evaluation(const std::string& text) {
  if (text == "auto") return Evaluation::automatic;
  if (text == "per-query") return Evaluation::per_query;
  if (text == "indexed") return Evaluation::indexed;
  throw UsageError("--predicate-evaluation must be auto, per-query or indexed, not '" + text + "'");
}

std::string to_string(Evaluation e) {
  switch (e) {
    case Evaluation::automatic: return "auto";
    case Evaluation::per_query: return "per-query";
    case Evaluation::indexed: return "indexed";
  }
  return "?";
}

ScanPlan::ScanPlan(const ColumnTable& table, std::span<const ColumnStats> stats, std::span<const PositionedQuery> queries,
                   std::size_t words, Evaluation evaluation)
    : words_(words) {
  for (const PositionedQuery& q : queries) {
    if (q.position >= 64 * words) throw Error("a shared scan's query position is beyond its bitsets");
    QueryPlan plan;
    plan.position = q.position;
    std::vector<std::pair<double, const Predicate*>> sets;
    bool impossible = false;
    for (const Predicate& p : q.query->predicates) {
      if (p.column >= table.columns() || table.schema().columns[p.column].type == ColumnType::text) {
        throw Error("a query has a predicate on column " + std::to_string(p.column) + ", which table " +
                    table.schema().name + " has no numbers in");
      }
      const double fraction = pass_fraction(p, stats[p.column]);
      impossible |= fraction == 0;
      const BoundPredicate bound{table.data(p.column), table.schema().columns[p.column].type, &p};
      if (is_range(p)) {
        plan.predicates.push_back(bound);
      } else if (covers_present_values(p, stats[p.column])) {
        converted_.push_back(Predicate::between(p.column, p.low, p.high));
        plan.predicates.push_back({bound.column, bound.type, &converted_.back()});
      } else {
        sets.emplace_back(fraction, &p);
      }
    }
    if (impossible) {
      ++pruned_;
      continue;
    }
    plan.ranges = plan.predicates.size();
    std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [fraction, p] : sets) {
      plan.predicates.push_back({table.data(p->column), table.schema().columns[p->column].type, p});
    }
    if (plan.predicates.size() > 255) throw Error("a query has more than 255 predicates on one table");
    plans_.push_back(std::move(plan));
  }
  estimate_costs(table, stats, queries);
  evaluation_ = evaluation != Evaluation::automatic ? evaluation
                : index_cost_ < per_query_cost_    ? Evaluation::indexed
                                                   : Evaluation::per_query;
  if (evaluation_ == Evaluation::indexed) index_ = std::make_unique<PredicateIndex>(table, stats, queries, words);
}

void ScanPlan::estimate_costs(const ColumnTable& table, std::span<const ColumnStats> stats,
                              std::span<const PositionedQuery> queries) {
  per_query_cost_ = 0;
  for (const QueryPlan& q : plans_) {
    double surviving = 1;
    per_query_cost_ += q.ranges > 0 ? kListRows + kDenseRange * static_cast<double>(q.ranges) : 0;
    for (std::size_t i = 0; i < q.predicates.size(); ++i) {
      const Predicate& p = *q.predicates[i].predicate;
      if (i == 0 && q.ranges == 0) per_query_cost_ += kFirstSet;
      if (i > 0 && i >= q.ranges) per_query_cost_ += surviving * kSetLookup;
      surviving *= pass_fraction(p, stats[p.column]);
    }
    per_query_cost_ += surviving * kMarkRow;
  }
  // The index: a lookup per row in each column some query reads, the
  // residuals on the rows left, and building the value tables, spread over
  // the rows.
  const IndexShape shape = PredicateIndex::shape(table, stats, queries, words_);
  const double words = static_cast<double>(words_);
  const double rows = static_cast<double>(std::max<std::size_t>(table.rows(), 1));
  index_cost_ = 0.3 * words + (kIndexLookup + kIndexWord * words) * static_cast<double>(shape.columns) +
                kResidual * shape.residual_checks + kIndexBuildValue * shape.table_values / rows;
}

void ScanPlan::zone_queries(const ZoneMap& zones, std::size_t zone, ZoneQueries& out) const {
  out.active.assign(words_, 0);
  out.queries.resize(plans_.size());
  out.count = 0;
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const QueryPlan& q = plans_[i];
    ZoneQueries::Query& z = out.queries[i];
    z.position = q.position;
    z.ranges.clear();
    z.sets.clear();
    bool possible = true;
    for (std::size_t k = 0; k < q.predicates.size() && possible; ++k) {
      const Predicate& p = *q.predicates[k].predicate;
      const ZoneVerdict verdict = zone_verdict(p, zones.range(zone, p.column));
      if (verdict == ZoneVerdict::none) possible = false;
      if (verdict != ZoneVerdict::some) continue;
      (k < q.ranges ? z.ranges : z.sets).push_back(static_cast<std::uint8_t>(k));
    }
    if (!possible) continue;
    out.active[q.position / 64] |= std::uint64_t{1} << (q.position % 64);
    ++out.count;
  }
}

void ScanPlan::evaluate(const ZoneQueries& zone, std::size_t first, std::size_t rows, std::uint64_t* masks,
                        Scratch& scratch) const {
  scratch.touched.clear();
  if (zone.count == 0) return;
  if (evaluation_ == Evaluation::indexed) {
    evaluate_indexed(zone, first, rows, masks, scratch);
  } else {
    evaluate_per_query(zone, first, rows, masks, scratch);
  }
}

// Each active query on its own: its range predicates densely into a byte per
// row, the rows left as a list, its set predicates on the list; then its bit
// in the bitsets of the rows left, which are marked touched.
void ScanPlan::evaluate_per_query(const ZoneQueries& zone, std::size_t first, std::size_t rows, std::uint64_t* masks,
                                  Scratch& scratch) const {
  scratch.pass.resize(rows);
  scratch.list.resize(rows + kListSlack);
  scratch.touched_bits.assign((rows + 63) / 64, 0);
  std::uint8_t* pass = scratch.pass.data();
  std::uint16_t* list = scratch.list.data();
  std::uint64_t* touched = scratch.touched_bits.data();
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const ZoneQueries::Query& z = zone.queries[i];
    const std::size_t word = z.position / 64;
    const std::uint64_t bit = std::uint64_t{1} << (z.position % 64);
    if ((zone.active[word] & bit) == 0) continue;
    const QueryPlan& q = plans_[i];
    std::size_t n = rows;
    std::size_t s = 0;
    if (!z.ranges.empty()) {
      std::memset(pass, 1, rows);
      for (std::uint8_t k : z.ranges) and_range(q.predicates[k], first, rows, pass);
      n = list_passing(pass, rows, list);
    } else if (!z.sets.empty()) {
      n = list_passing_one(q.predicates[z.sets[s++]], first, rows, list);
    } else {
      std::iota(list, list + rows, std::uint16_t{0});
    }
    for (; s < z.sets.size() && n > 0; ++s) n = keep_passing(q.predicates[z.sets[s]], first, list, n);
    for (std::size_t r = 0; r < n; ++r) {
      masks[list[r] * words_ + word] |= bit;
      touched[list[r] / 64] |= std::uint64_t{1} << (list[r] % 64);
    }
    scratch.matches += n;
  }
  for (std::size_t w = 0; w < scratch.touched_bits.size(); ++w) {
    for (std::uint64_t bits = touched[w]; bits != 0; bits &= bits - 1) {
      scratch.touched.push_back(static_cast<std::uint16_t>(64 * w + static_cast<std::size_t>(std::countr_zero(bits))));
    }
  }
}

// The index's candidates (every row's bitset written), those of the zone's
// queries kept, their residual predicates checked.
void ScanPlan::evaluate_indexed(const ZoneQueries& zone, std::size_t first, std::size_t rows, std::uint64_t* masks,
                                Scratch& scratch) const {
  index_->candidates(first, rows, masks);
  if (zone.count < plans_.size()) {
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t w = 0; w < words_; ++w) masks[r * words_ + w] &= zone.active[w];
    }
  }
  index_->check_residuals(first, rows, masks, scratch.index);
  scratch.touched.resize(rows);
  std::uint16_t* touched = scratch.touched.data();
  std::size_t n = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    std::uint64_t any = 0;
    for (std::size_t w = 0; w < words_; ++w) any |= masks[r * words_ + w];
    touched[n] = static_cast<std::uint16_t>(r);
    n += any != 0 ? 1 : 0;
  }
  scratch.touched.resize(n);
  scratch.matches += count_bits(masks, rows * words_);
}

}  // namespace hpcdb
