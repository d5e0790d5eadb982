#pragma once
// The query index of a shared scan (Crescando's idea: index the queries, not
// the data). Each query of a batch has a bit position; of its predicates one
// is indexed, the one expected to pass the fewest rows (estimated on a
// sample of the column), and for each column
// that carries indexed predicates a table maps every value of the column's
// range to the bitset of queries whose indexed predicate that value passes.
// A row's candidate queries are then the OR of one table entry per indexed
// column, plus the queries without an indexable predicate; only for those
// candidates are the other (residual) predicates checked on the row. A
// query with a predicate that no row of the fragment can pass is dropped at
// once.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/storage/column_stats.hpp"
#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/predicate_kernels.hpp"
#include "hpcdb/storage/storage_query.hpp"

namespace hpcdb {

struct PositionedQuery {
  const StorageQuery* query = nullptr;
  std::size_t position = 0;  // bit in the batch's bitsets
};

struct PredicateIndexStats {
  std::size_t indexed = 0;     // queries with an indexed predicate
  std::size_t unindexed = 0;   // candidates on every row
  std::size_t pruned = 0;      // no row can match
  std::size_t residual_predicates = 0;
  std::size_t table_bytes = 0;
};

class PredicateIndex {
 public:
  // A column's value table may take at most this many bytes; predicates on
  // wider ranges are checked as residuals instead.
  static constexpr std::size_t kMaxTableBytes = std::size_t{128} << 20;

  // `stats[c]`: the value range and sample of column c of `table`.
  // `words`: 64-bit words per bitset (positions < 64 x words).
  PredicateIndex(const ColumnTable& table, std::span<const ColumnStats> stats, std::span<const PositionedQuery> queries,
                 std::size_t words);
  // The predicate of `query` that an index with `words`-word bitsets would
  // index (null: none fits a value table), and in `fraction` the share of
  // rows it passes (0: the query can match no row, by any of its predicates).
  static const Predicate* indexable(const StorageQuery& query, const ColumnTable& table,
                                    std::span<const ColumnStats> stats, std::size_t words, double& fraction);

  std::size_t words() const { return words_; }
  // The candidate bitsets of rows [first, first + rows): rows x words() words.
  void candidates(std::size_t first, std::size_t rows, std::uint64_t* masks) const;
  // Whether `row` passes the residual predicates of the query at `position`.
  bool residuals_pass(std::size_t position, std::size_t row) const {
    for (const BoundPredicate& b : residuals_[position]) {
      if (!b.predicate->matches(b.value(row))) return false;
    }
    return true;
  }
  // Clears, in the candidate bitsets of rows [first, first + rows) (at most
  // kBlockRows), the bit of every query whose residual predicates the row
  // fails: the candidate rows are first sorted out by query (one pass over
  // the bitsets), then each query's predicates run over its rows in one loop
  // each (most selective predicate first). `scratch` is reused between
  // calls. Returns the (row, query) candidates.
  static constexpr std::size_t kBlockRows = 1024;
  struct Scratch {
    std::vector<std::uint16_t> rows;    // kBlockRows per position
    std::vector<std::uint16_t> counts;  // per position
  };
  std::uint64_t check_residuals(std::size_t first, std::size_t rows, std::uint64_t* masks, Scratch& scratch) const;
  const PredicateIndexStats& stats() const { return stats_; }

 private:
  // A column's value table holds, per value, only the bits of the queries
  // indexed on that column (local bit i: the i-th of them), in as few bytes
  // as they need, so that it stays small enough for the caches; small
  // tables (one per byte of an entry) expand the local bits into the
  // batch's bitsets.
  struct ColumnIndex {
    std::uint16_t column = 0;
    ColumnType type = ColumnType::i32;
    const std::byte* values = nullptr;
    std::int64_t min = 0;
    std::uint64_t domain = 0;             // max - min + 1
    std::vector<std::size_t> positions;   // of the queries indexed here, by local bit
    std::size_t entry_bytes = 1;          // 1, 2, 4, or a multiple of 8
    std::vector<std::uint8_t> entries;    // domain x entry_bytes
    std::vector<std::uint64_t> expand;    // entry_bytes x 256 x words
  };

  void build_column(ColumnIndex& c, const std::vector<const Predicate*>& predicates);
  template <class T, std::size_t kEntryBytes>
  void or_column_one_word(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const;
  template <class T>
  void or_column(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const;

  const ColumnTable& table_;
  std::size_t words_;
  std::vector<std::uint64_t> unindexed_;  // words
  std::vector<ColumnIndex> columns_;
  std::vector<std::vector<BoundPredicate>> residuals_;  // by position, most selective first
  std::vector<std::size_t> with_residuals_;              // positions that have any
  std::vector<std::uint64_t> residual_mask_;             // words: their bits
  PredicateIndexStats stats_;
};

}  // namespace hpcdb
