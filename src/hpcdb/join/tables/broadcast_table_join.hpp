#pragma once
// A join of two tables by broadcasting the smaller side (the build side)
// to every rank, top-down in its phases:
//   broadcast    every rank's share of the build side's columns goes to every
//                other rank (table_allgather.hpp)
//   join         the build side's keys are indexed (key_index.hpp); then each
//                rank goes through its own batches of the other (probe) side,
//                one at a time: the batch's keys probe the index, giving pairs
//                of a probe row and a build row, in probe-row order
//   verify       hashed keys only: the batch's pairs whose key values differ
//                (hash collisions) are dropped, both values at hand
//   materialize  the batch's result rows: every column taken where its rows
//                lie (a run of the batch's rows in order passes through
//                without a copy), then its unmatched rows (outer and anti
//                joins) or matched ones (semi joins); after the last batch,
//                the build side's rows some rank matched are agreed, and each
//                rank adds those of its own share that the join keeps
//   write        the sink's time (table/result_sink.hpp)
// No row of the probe side moves, and no pair outlives its batch. The
// result is this rank's share: its probe batches' rows, then its own
// unmatched build rows.
#include "hpcdb/join/tables/table_join.hpp"

namespace hpcdb {

// Collective. `broadcast_left`: the left side is the build side (else the right).
TableJoinOutcome broadcast_join_tables(const Cluster& cluster, const DistributedTable& left,
                                       const DistributedTable& right, const TableJoinSpec& spec,
                                       const TableJoinSettings& settings, bool broadcast_left, ResultSink& sink);

}  // namespace hpcdb
