#pragma once
// The distributed sort-merge join (one operator instance per rank).
//
// Plan (sort_merge_plan.hpp, agreed by all ranks): tuple format, key
// sub-ranges, run length, input chunks, window and staging sizes. Set-up
// (not timed) allocates and pre-faults the node-shared receive arena, run
// staging memory and merge buffer. run() (timed, repeatable):
//   partition          key bounds (MPI_Allreduce), one key range per rank (equal
//                      or sampled splitters), itself cut into sub-ranges; one
//                      pass cutting each sub-range into runs in staging, in the
//                      plan's format; with node sharing a worker helps the
//                      other ranks of its node once its own chunks are done
//                      (run_formation.hpp)
//   window_allocation  window sizes (MPI_Reduce_scatter_block), exclusive offsets
//                      (MPI_Scan), per-sender run counts (MPI_Alltoall)
//                      (run_placement.hpp)
//   sort               every run is sorted and at once written to its owner
//                      (shared memory, or MPI_Rput), while the next is sorted;
//                      rank i starts with the range of rank i+1 (run_shipping.hpp)
//   sort_wait          all puts complete, barrier
//   merge              multi-way merge of the received runs (fan-in F), each
//                      sub-range apart, in cache-sized pieces (merge_phase.hpp)
//   match              one scan over both sorted relations (match_phase.hpp)
#include <memory>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/sortmerge/sort_merge_config.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_task_counter.hpp"

namespace hpcdb {

class SortMergeJoin : public DistributedJoin {
 public:
  // Collective. Allocates what the plan needs.
  SortMergeJoin(const Cluster& cluster, const SortMergePlan& plan);
  // Collective. Plans from the agreed facts of these relations first.
  SortMergeJoin(const Cluster& cluster, const SortMergeJoinConfig& config, const Relation& inner, const Relation& outer);

  // Collective. Joins the relations the join was planned for.
  JoinResult run(const Relation& inner, const Relation& outer) override;

  const SortMergePlan& plan() const { return plan_; }

 private:
  template <class Format>
  JoinResult run_in(Format format, const Relation& inner, const Relation& outer);

  const Cluster& cluster_;
  SortMergePlan plan_;
  std::unique_ptr<ReceiveWindows> windows_;
  std::unique_ptr<NodeTaskCounter> node_tasks_;  // each rank's list of input chunks
  // Runs before they are sorted and sent; once every window is complete,
  // the merge phase's second buffer (the staging is no longer needed then).
  MemoryRegion staging_;
  MemoryRegion merge_buffer_;  // only when windows grew beyond the staging
};

}  // namespace hpcdb
