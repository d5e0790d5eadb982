#pragma once
// How one cycle of a shared scan evaluates its queries' predicates, decided
// once per cycle from the queries and the columns' statistics, one of two
// ways:
//   per query: each query's predicates over each block, ranges densely
//     (SIMD over the column), then sets over the rows still passing (a set
//     that holds every value the column has within its bounds is evaluated
//     as that range); its cost grows with the number of queries;
//   indexed (Crescando): one predicate per query in a value table per
//     column (predicate_index.hpp), one lookup per row and indexed column
//     whatever the number of queries, the others checked on the candidates.
// The plan takes the way it expects to cost fewer nanoseconds per row (few
// queries: per query; many: indexed), unless told which. Either way the
// zone map (zone_map.hpp) first leaves out, per zone of rows, the queries
// whose predicates its values rule out, and, per query, the range
// predicates every value of the zone passes.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <span>
#include <vector>

#include "hpcdb/storage/column_stats.hpp"
#include "hpcdb/storage/predicate_index.hpp"
#include "hpcdb/storage/predicate_kernels.hpp"
#include "hpcdb/storage/zone_map.hpp"

namespace hpcdb {

enum class Evaluation : std::uint8_t { automatic, per_query, indexed };
Evaluation parse_evaluation(const std::string& text);  // auto, per-query, indexed; UsageError otherwise
std::string to_string(Evaluation e);

// The queries of one zone that may match, and for each the predicates the
// zone leaves to evaluate (indices into its plan's predicates).
struct ZoneQueries {
  std::vector<std::uint64_t> active;  // words: bits of the queries left
  struct Query {
    std::size_t position = 0;
    std::vector<std::uint8_t> ranges;  // range predicates some rows of the zone fail
    std::vector<std::uint8_t> sets;    // set predicates (most selective first)
  };
  std::vector<Query> queries;  // per query, in the plan's order (only the active ones are filled)
  std::size_t count = 0;       // active queries
};

class ScanPlan {
 public:
  // `queries` of one batch at their bit positions (positions < 64 x words).
  ScanPlan(const ColumnTable& table, std::span<const ColumnStats> stats, std::span<const PositionedQuery> queries,
           std::size_t words, Evaluation evaluation);

  Evaluation evaluation() const { return evaluation_; }  // per_query or indexed
  std::size_t words() const { return words_; }
  std::size_t queries() const { return plans_.size(); }
  std::size_t pruned() const { return pruned_; }
  double estimated_ns_per_row(Evaluation e) const { return e == Evaluation::indexed ? index_cost_ : per_query_cost_; }
  // The index (indexed plans only).
  const PredicateIndex* index() const { return index_.get(); }

  // Which queries zone `zone` leaves, into `out`.
  void zone_queries(const ZoneMap& zones, std::size_t zone, ZoneQueries& out) const;
  struct Scratch {
    std::vector<std::uint8_t> pass;
    std::vector<std::uint16_t> list;
    std::vector<std::uint64_t> touched_bits;  // a bit per block row
    std::vector<std::uint16_t> touched;       // the rows some query passes, in order
    std::uint64_t matches = 0;                // (row, query) pairs that passed, summed over calls
    PredicateIndex::Scratch index;
  };
  // Sets, in the rows x words() bitsets at `masks`, the bit of every active
  // query of `zone` that row first + r passes (r < rows, at most
  // PredicateIndex::kBlockRows), and lists in scratch.touched the rows with
  // any bit set. The bitsets of rows not listed are left zero; the caller
  // zeroes `masks` once and, after each call, the rows listed.
  void evaluate(const ZoneQueries& zone, std::size_t first, std::size_t rows, std::uint64_t* masks, Scratch& scratch) const;

 private:
  struct QueryPlan {
    std::size_t position = 0;
    std::vector<BoundPredicate> predicates;  // ranges first, then sets by pass fraction
    std::size_t ranges = 0;
  };
  void evaluate_per_query(const ZoneQueries& zone, std::size_t first, std::size_t rows, std::uint64_t* masks,
                          Scratch& scratch) const;
  void evaluate_indexed(const ZoneQueries& zone, std::size_t first, std::size_t rows, std::uint64_t* masks,
                        Scratch& scratch) const;
  void estimate_costs(const ColumnTable& table, std::span<const ColumnStats> stats,
                      std::span<const PositionedQuery> queries);

  std::size_t words_;
  std::vector<QueryPlan> plans_;  // queries that may match some row
  std::deque<Predicate> converted_;  // set predicates that pass what a range does, as that range
  std::size_t pruned_ = 0;
  double per_query_cost_ = 0;
  double index_cost_ = 0;
  Evaluation evaluation_ = Evaluation::per_query;
  std::unique_ptr<PredicateIndex> index_;
};

}  // namespace hpcdb
