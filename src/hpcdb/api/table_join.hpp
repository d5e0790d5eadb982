#pragma once
// The library entry point of a join of two tables (any front end calls
// this: the command line, the Python package). Collective: every rank calls
// it with the same request but its own in-memory share, if any. No option
// parsing, no printing; every failure is an exception, the same on every rank.
#include <arrow/table.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/tables/table_join_spec.hpp"
#include "hpcdb/join/tables/table_join_strategy.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/progress_guard.hpp"
#include "hpcdb/table/parquet_directory_writer.hpp"
#include "hpcdb/table/row_keys.hpp"
#include "hpcdb/table/table_input.hpp"

namespace hpcdb {

// One side of the join: this rank's share as an Arrow table, or files that
// every rank reads its share of.
struct TableJoinSide {
  TableInput input;                     // read when `table` is null
  std::shared_ptr<arrow::Table> table;  // this rank's share, in memory
};

struct TableJoinRequest {
  TableJoinSide left;
  TableJoinSide right;
  JoinKeys on;
  JoinHow how = JoinHow::inner;
  std::vector<std::string> columns;  // result columns; empty: all of both sides
  std::pair<std::string, std::string> suffixes{"_l", "_r"};
  JoinConfigs operators;  // radix (default) or sort-merge, and its options (a partitioned join's)
  TableJoinStrategy strategy = TableJoinStrategy::automatic;  // partitioned or broadcast (table_join_strategy.hpp)
  TableOutput output;     // a directory of Parquet files; empty: the result stays in memory
  bool progress = false;  // a progress line on rank 0's terminal
  unsigned testing_hash_bits = 64;  // testing aid: hashes cut to this many bits collide
  std::uint64_t testing_slice_rows = 0;  // testing aid: result rows fetched at a time when written (0: the default)
  ProgressGuardConfig guard;        // how long a silent rank is waited for (the caller starts the guard)
};

// What the plan decided, agreed by all ranks before the join.
struct TableJoinPlan {
  TableJoinStrategy strategy = TableJoinStrategy::partitioned;  // partitioned or broadcast
  JoinAlgorithm algorithm = JoinAlgorithm::radix;  // a partitioned join's operator
  KeyEncoding encoding = KeyEncoding::direct;
  std::string materialization;    // how payload columns reach the result, and why
  bool left_is_build = true;      // the operator's inner (build) relation, or the side broadcast
  unsigned tuple_bytes = 16;      // of the operator's <key, rid> tuples (partitioned)
  double left_row_bytes = 0;      // in memory, per row of the columns read
  double right_row_bytes = 0;
  std::uint64_t estimate_bytes_per_rank = 0;  // checked before reading
  std::vector<std::string> result_columns;
};

struct TableJoinResult {
  std::shared_ptr<arrow::Table> table;  // this rank's result rows
  TableJoinPlan plan;
  std::uint64_t left_rows = 0;          // over all ranks
  std::uint64_t right_rows = 0;
  std::uint64_t result_rows = 0;
  std::uint64_t pairs = 0;              // matching pairs (inner rows)
  std::uint64_t hash_collisions = 0;    // pairs of equal hashes and unequal keys, dropped
  std::uint64_t keyless_rows = 0;       // rows with a null key (they match nothing)
  std::uint64_t join_bytes_sent = 0;    // the key join's bytes to other ranks
  std::uint64_t materialize_bytes_sent = 0;
  std::uint64_t broadcast_bytes_sent = 0;  // a broadcast join's build side, to other ranks
  std::uint64_t peak_bytes_per_rank = 0;  // the largest rank's peak memory during the request
  std::uint64_t output_bytes = 0;       // Parquet bytes written, all ranks
  std::vector<std::pair<std::string, std::string>> output_encodings;  // rank 0's file: each column's
  std::vector<PhaseTime> phases;        // read, then plan (partitioned) or broadcast, join, verify (hashed keys),
                                        // materialize, write
  JoinResult key_join;                  // the operator's own report (phases, settings)
  double seconds = 0;                   // all phases
};

// Collective.
TableJoinResult run_table_join(const Cluster& cluster, const TableJoinRequest& request);

}  // namespace hpcdb
