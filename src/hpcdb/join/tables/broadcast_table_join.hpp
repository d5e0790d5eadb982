#pragma once
// A join of two tables by broadcasting the smaller side (the build side)
// to every rank, top-down in its phases:
//   broadcast    every rank's share of the build side's columns goes to every
//                other rank (table_allgather.hpp)
//   join         the build side's keys are indexed (key_index.hpp) and each
//                rank probes the index with its own rows of the other side:
//                pairs of a probe row and a build row, in probe-row order
//   verify       hashed keys only: pairs whose key values differ (hash
//                collisions) are dropped, both values at hand
//   materialize  every result column is taken where its rows lie (the probe
//                side's share, the build side's copy), a slice of pairs at a
//                time; unmatched rows of outer and anti joins (and matched
//                ones of semi joins) come from each rank's own share, the
//                build side's matches first agreed over all ranks
// No row of the probe side moves. The result is this rank's share: its
// probe rows' pairs, then its own unmatched rows.
#include "hpcdb/join/tables/table_join.hpp"

namespace hpcdb {

// Collective. `broadcast_left`: the left side is the build side (else the right).
TableJoinOutcome broadcast_join_tables(const Cluster& cluster, const DistributedTable& left,
                                       const DistributedTable& right, const TableJoinSpec& spec,
                                       const TableJoinSettings& settings, bool broadcast_left, ResultSink& sink);

}  // namespace hpcdb
