#pragma once
// A join of two distributed tables on key columns, on the engine's join
// operators (radix or sort-merge), top-down in its phases:
//   keys         the key columns become <key, rid> tuples (key_relations.hpp),
//                the operator is planned from the agreed facts
//   join         the operator joins the tuples and keeps the <rid, rid> pairs
//   verify       hashed keys only: the key values of every pair, fetched from
//                their owners, are compared; pairs of unequal keys (hash
//                collisions) are dropped
//   materialize  late materialization: each result column is fetched for the
//                pairs from the rows' owners (row_fetch.hpp); unmatched rows of
//                outer and anti joins (and matched ones of semi joins) come
//                from each rank's own share, the other side's columns null;
//                the rows go to a sink as they are made, a slice of pairs at
//                a time (table/result_sink.hpp)
// The result is this rank's share: its pairs' rows, then its own unmatched rows.
#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/tables/table_join_spec.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/result_sink.hpp"
#include "hpcdb/table/row_keys.hpp"

namespace hpcdb {

// Result rows a rank fetches at a time (4M: a few hundred MB for rows of
// some ten columns).
inline constexpr std::uint64_t kResultSliceRows = std::uint64_t{1} << 22;

struct TableJoinSettings {
  JoinConfigs operators;  // algorithm (radix or sort-merge) and its options
  unsigned hash_bits = 64;  // testing aid: fewer bits force hash collisions
  std::uint64_t slice_rows = kResultSliceRows;  // result rows a rank fetches (or takes) at a time
};

struct TableJoinOutcome {
  std::shared_ptr<arrow::Schema> schema;  // the result's
  KeyEncoding encoding = KeyEncoding::direct;
  bool left_is_inner = true;
  unsigned tuple_bytes = 16;            // of the operator's tuples
  JoinResult operator_result;           // phases, bytes, settings of the key join
  std::uint64_t pairs = 0;              // over all ranks, after verification
  std::uint64_t collisions = 0;         // pairs dropped: equal hashes, unequal keys
  std::uint64_t left_keyless = 0;       // rows with a null key
  std::uint64_t right_keyless = 0;
  std::uint64_t materialize_bytes = 0;  // sent to other ranks after the key join, all ranks
  std::uint64_t broadcast_bytes = 0;    // a broadcast join's build side sent to other ranks, all ranks
  std::vector<PhaseTime> phases;        // keys, join, verify, materialize, the sink's phase (write)
};

// Collective. The tables hold at least the spec's reads of each side; the
// result's rows go to `sink` (its schema: result_schema()).
TableJoinOutcome join_tables(const Cluster& cluster, const DistributedTable& left, const DistributedTable& right,
                             const TableJoinSpec& spec, const TableJoinSettings& settings, ResultSink& sink);

// The result's schema: each result column's field under its result name
// (nullable where the source column is, and on the side whose columns an
// outer join fills with nulls for the other side's unmatched rows).
std::shared_ptr<arrow::Schema> result_schema(const arrow::Schema& left, const arrow::Schema& right,
                                             const TableJoinSpec& spec);

}  // namespace hpcdb
