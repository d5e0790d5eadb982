#pragma once
// The distributed radix hash join (one operator instance per rank).
//
// Plan (radix_plan.hpp, agreed by all ranks): radix bits, tuple format,
// input chunks, window and buffer sizes. Set-up (not timed) allocates and
// pre-faults the node-shared receive arena, chunk tables and send buffers.
// run() (timed, repeatable); with node sharing, the workers of every rank of
// a node share the node's chunks and partitions (own ones first):
//   histogram          radix histogram per input chunk, summed over ranks
//                      (partition_histograms.hpp)
//   window_allocation  assignment, exact window sizes, exclusive offsets
//                      (MPI_Scan), each chunk's write starts, windows opened
//                      (partition_placement.hpp)
//   network_partition  partition chunks + compress + ship (shared memory or
//                      MPI_Rput); scheduled: partition into local staging
//                      only (network_pass.hpp)
//   network_exchange   scheduled only: every staged partition to its owner in
//                      the schedule's order (staged_exchange.hpp)
//   network_wait       completion of all puts, barrier: every window is complete
//   local_partition    optional local radix pass, per owned partition, in cache
//   build_probe        cache-resident build and probe, skewed partitions shared
//                      by threads (build_probe_phase.hpp)
#include <memory>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/radix/radix_config.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/radix/input_chunks.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/radix/staged_exchange.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_task_counter.hpp"

namespace hpcdb {

class RadixJoin : public DistributedJoin {
 public:
  // Collective. Allocates what the plan needs.
  RadixJoin(const Cluster& cluster, const RadixPlan& plan);
  // Collective. Plans from the agreed facts of these relations first.
  RadixJoin(const Cluster& cluster, const RadixJoinConfig& config, const Relation& inner, const Relation& outer);

  // Collective. Joins inner (build side) with outer (probe side), the
  // relations the join was planned for.
  JoinResult run(const Relation& inner, const Relation& outer) override;

  const RadixPlan& plan() const { return plan_; }

 private:
  template <class Format>
  JoinResult run_in(Format format, const Relation& inner, const Relation& outer);

  const Cluster& cluster_;
  RadixPlan plan_;
  std::unique_ptr<ReceiveWindows> windows_;
  MemoryRegion send_buffers_;                    // streaming puts only
  std::unique_ptr<StagedExchange> staged_;       // scheduled network phase only
  std::unique_ptr<NodeTaskCounter> node_tasks_;  // each rank's list of chunks or partitions
  std::unique_ptr<InputChunks> chunks_;
};

}  // namespace hpcdb
