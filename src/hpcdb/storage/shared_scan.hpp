#pragma once
// One cycle of the shared scan: every selection of the batch, from every
// query engine, is answered by a single pass over the table. Rows are taken
// in blocks; for each block the predicate index gives every row's candidate
// queries, the residual predicates clear the candidates a row fails, and a
// row that some engine's query still wants is written once to that engine's
// result batch: its bitset (that engine's queries the row passes) and its
// record (the columns that engine's queries of this batch return).
//
// Bit positions: each engine's queries take a run of whole 64-bit words of
// the batch's bitsets, in the order the engine sent them, so that an
// engine's bitset is a copy of its words.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/storage/predicate_index.hpp"
#include "hpcdb/storage/result_writer.hpp"

namespace hpcdb {

struct EngineShare {
  std::uint32_t engine = 0;
  std::vector<const StorageQuery*> queries;  // in bit order
  std::size_t first_word = 0;
  std::size_t words = 0;
  RecordLayout record;  // union of the queries' projections
};

// The bit positions of a batch's queries: engine after engine, each from a
// word boundary. Fills first_word, words and record of every share; returns
// the words of the batch's bitsets.
std::size_t assign_positions(const TableSchema& schema, std::vector<EngineShare>& shares,
                             std::vector<PositionedQuery>& positioned);

struct ScanCounts {
  std::uint64_t rows = 0;         // scanned
  std::uint64_t candidates = 0;   // (row, query) pairs the index proposed that had residual predicates to check
  std::uint64_t matches = 0;      // (row, query) pairs that passed
  std::uint64_t emitted = 0;      // (row, engine) tuples written
  ScanCounts& operator+=(const ScanCounts& o);
};

// Scans rows [first, end) of `table`, writing to writers[i] for shares[i].
ScanCounts shared_scan(const ColumnTable& table, const PredicateIndex& index, std::span<const EngineShare> shares,
                       std::span<ResultWriter* const> writers, std::size_t first, std::size_t end);

}  // namespace hpcdb
