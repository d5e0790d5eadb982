#pragma once
// The query index of a shared scan (Crescando's idea: index the queries, not
// the data). Each query of a batch has a bit position. For every column that
// some query's predicates read, a value table maps each value of the
// column's range to the bitset of the queries constrained on that column
// whose predicates there the value passes (the queries not constrained on
// it pass whatever its value). A row's queries are then the AND over those
// columns of one table entry each: one lookup per row and column, whatever
// the number of queries. Only predicates on columns whose range is too wide
// for a table are checked afterwards, query by query, on the rows left
// (residuals). A query with a predicate that no row of the fragment can pass
// is dropped at once.
//
// A column's table holds, per value, only the bits of the queries
// constrained on that column (local bit i: the i-th of them), in as few
// bytes as they need, so that it stays small enough for the caches; small
// tables (one per byte of an entry) expand the local bits into the batch's
// bitsets. With more than 16 queries on a column, entries hold the batch's
// bits themselves (as large, and one load instead of one per byte). Such a
// table over a wide range (a foreign key's, whose semi-join filters many
// queries share) has few distinct entries: it is then held as a code of 1
// or 2 bytes per value into a list of its distinct bitsets, an eighth or a
// quarter of the bytes, so that the random lookups stay in the caches.
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
  std::size_t columns = 0;     // value tables
  std::size_t indexed = 0;     // predicates in them
  std::size_t pruned = 0;      // queries no row can match
  std::size_t residual_predicates = 0;
  std::size_t table_bytes = 0;
  std::size_t coded = 0;       // value tables held as codes into distinct bitsets
};

// What an index over a batch's queries would hold (for estimating its cost).
struct IndexShape {
  std::size_t columns = 0;          // value tables
  double table_values = 0;          // summed over the tables: values of their ranges
  double residual_checks = 0;       // per row: (query, residual predicate) pairs to check, by pass fractions
};

class PredicateIndex {
 public:
  // A column's value table may take at most this many bytes; predicates on
  // wider ranges are checked as residuals instead.
  static constexpr std::size_t kMaxTableBytes = std::size_t{128} << 20;
  // A table of the batch's bitsets larger than this is coded (if its
  // distinct entries allow): about half a core's second-level cache.
  static constexpr std::size_t kCodeAboveBytes = std::size_t{256} << 10;

  // `stats[c]`: the value range and sample of column c of `table`.
  // `words`: 64-bit words per bitset (positions < 64 x words).
  PredicateIndex(const ColumnTable& table, std::span<const ColumnStats> stats, std::span<const PositionedQuery> queries,
                 std::size_t words);
  static IndexShape shape(const ColumnTable& table, std::span<const ColumnStats> stats,
                          std::span<const PositionedQuery> queries, std::size_t words);

  std::size_t words() const { return words_; }
  // The bitsets of rows [first, first + rows): rows x words() words, the bit
  // of every query whose indexed predicates the row passes.
  void candidates(std::size_t first, std::size_t rows, std::uint64_t* masks) const;
  // Whether `row` passes the residual predicates of the query at `position`.
  bool residuals_pass(std::size_t position, std::size_t row) const {
    for (const BoundPredicate& b : residuals_[position]) {
      if (!b.predicate->matches(b.value(row))) return false;
    }
    return true;
  }
  // Clears, in the bitsets of rows [first, first + rows) (at most
  // kBlockRows), the bit of every query whose residual predicates the row
  // fails: the rows are first sorted out by query (one pass over the
  // bitsets), then each query's residuals run over its rows in one loop each
  // (most selective first). `scratch` is reused between calls. Returns the
  // (row, query) pairs checked.
  static constexpr std::size_t kBlockRows = 1024;
  struct Scratch {
    std::vector<std::uint16_t> rows;    // kBlockRows per position
    std::vector<std::uint16_t> counts;  // per position
  };
  std::uint64_t check_residuals(std::size_t first, std::size_t rows, std::uint64_t* masks, Scratch& scratch) const;
  const PredicateIndexStats& stats() const { return stats_; }

 private:
  struct ColumnIndex {
    std::uint16_t column = 0;
    ColumnType type = ColumnType::i32;
    const std::byte* values = nullptr;
    std::int64_t min = 0;
    std::uint64_t domain = 0;             // max - min + 1
    std::vector<std::size_t> positions;   // of the queries constrained here, by local bit
    std::vector<std::uint64_t> free;      // words: the queries not constrained here (pass any value)
    std::size_t entry_bytes = 1;          // 1, 2, 4, or a multiple of 8
    std::vector<std::uint8_t> entries;    // (domain + 1) x entry_bytes
    std::vector<std::uint64_t> expand;    // entry_bytes x 256 x words
    // With many queries constrained here: entries in the batch's bits,
    // (domain + 1) x words (one load per row instead of one per byte).
    bool direct = false;
    std::vector<std::uint64_t> direct_entries;
    // Coded (one word only): value -> code (code_bytes each, the zero entry
    // included) -> its distinct bitset with `free` already ORed in.
    std::size_t code_bytes = 0;
    std::vector<std::uint8_t> codes;
    std::vector<std::uint64_t> patterns;
  };
  // A query's predicates on one column (their AND).
  struct Constraint {
    std::size_t query = 0;  // index into the queries
    std::vector<const Predicate*> predicates;
  };

  void build_column(ColumnIndex& c, const std::vector<Constraint>& constraints);
  template <class F>
  static void for_each_passing(const Constraint& k, const ColumnIndex& c, F&& f);
  void code_column(ColumnIndex& c);
  template <class T, class Code>
  void and_column_coded(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const;
  template <class T>
  void and_column_direct(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const;
  template <class T, std::size_t kEntryBytes>
  void and_column_one_word(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const;
  template <class T>
  void and_column(const ColumnIndex& index, std::size_t first, std::size_t rows, std::uint64_t* masks) const;

  const ColumnTable& table_;
  std::size_t words_;
  std::vector<std::uint64_t> live_;  // words: the queries that may match
  std::vector<ColumnIndex> columns_;
  std::vector<std::vector<BoundPredicate>> residuals_;  // by position, most selective first
  std::vector<std::size_t> with_residuals_;              // positions that have any
  std::vector<std::uint64_t> residual_mask_;             // words: their bits
  PredicateIndexStats stats_;
};

}  // namespace hpcdb
