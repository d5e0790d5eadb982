#pragma once
// One cycle of the shared scan: every selection of the batch, from every
// query engine, is answered by a single pass over the table. Workers take
// the table's zones (zone_map.hpp) one at a time from a shared counter
// (morsels: whoever is free takes the next, so a worker slowed by another
// thread on its core holds up nobody). For each zone the plan leaves out
// the queries the zone's value ranges rule out (and skips the zone when
// none is left); for each block of the zone's rows it sets every row's
// bitset of passing queries (scan_plan.hpp), and a row that some engine's
// query wants is written once to that engine's result batch: its bitset
// (that engine's queries the row passes) and its record (the columns that
// engine's queries of this batch return).
//
// Bit positions: each engine's queries take a run of whole 64-bit words of
// the batch's bitsets, in the order the engine sent them, so that an
// engine's bitset is a copy of its words.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/storage/result_writer.hpp"
#include "hpcdb/storage/scan_plan.hpp"

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
  std::uint64_t rows = 0;           // evaluated (in zones some query may match)
  std::uint64_t rows_skipped = 0;   // in zones no query could match
  std::uint64_t zones = 0;
  std::uint64_t zones_skipped = 0;
  std::uint64_t candidates = 0;     // (row, query) pairs the zone map left to evaluate
  std::uint64_t matches = 0;        // (row, query) pairs that passed
  std::uint64_t emitted = 0;        // (row, engine) tuples written
  double evaluate_seconds = 0;      // predicates (wall time of the worker)
  double emit_seconds = 0;          // copying records into result pieces, shipping them
  ScanCounts& operator+=(const ScanCounts& o);
};

// Scans the zones of `table` that `zones_left` hands out (until none is
// left), writing to writers[i] for shares[i].
ScanCounts shared_scan(const ColumnTable& table, const ZoneMap& zones, const ScanPlan& plan,
                       std::span<const EngineShare> shares, std::span<ResultWriter* const> writers, TaskCounter& zones_left);

}  // namespace hpcdb
