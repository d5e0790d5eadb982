#pragma once
// The distributed radix hash join (one operator instance per rank).
//
// Set-up (not timed): chooses the radix bits and input chunks, allocates and
// pre-faults the node-shared receive arena, chunk tables and send buffers.
// run() (timed, repeatable); with node sharing, the workers of every rank of
// a node share the node's chunks and partitions (own ones first):
//   histogram          radix histogram per input chunk, summed over ranks (MPI_Allreduce)
//   window_allocation  assignment, exact window sizes, exclusive offsets (MPI_Scan)
//                      and each chunk's write starts, window creation for one-sided puts
//   network_partition  partition chunks + compress + ship (shared memory or MPI_Rput);
//                      scheduled: partition into local staging only
//   network_exchange   scheduled only: every staged partition to its owner in
//                      the schedule's order (staged_exchange.hpp)
//   network_wait       completion of all puts, barrier: every window is complete
//   local_partition    optional local radix pass, per owned partition, in cache
//   build_probe        cache-resident build and probe, skewed partitions shared by threads
#include <memory>

#include "hpcdb/core/cpu_info.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/join_config.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/join/radix/input_chunks.hpp"
#include "hpcdb/join/radix/staged_exchange.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/net/node_task_counter.hpp"

namespace hpcdb {

class RadixJoin : public DistributedJoin {
 public:
  // Collective. Sizes everything for these two relations.
  RadixJoin(const Cluster& cluster, const RadixJoinConfig& config, const Relation& inner, const Relation& outer);

  // Collective. Joins inner (build side) with outer (probe side).
  JoinResult run(const Relation& inner, const Relation& outer) override;

  RadixBits bits() const { return bits_; }

 private:
  struct Histograms;
  template <class Format>
  void partition_and_join(Format format, class ChunkTasks& tasks, const Histograms& histograms, JoinResult& result,
                          class PhaseClock& clock);

  const Cluster& cluster_;
  RadixJoinConfig config_;
  CpuInfo cpu_;
  RadixBits bits_;
  std::unique_ptr<ReceiveWindows> windows_;
  MemoryRegion send_buffers_;
  bool shares_node_work() const { return config_.share_node_work && cluster_.node_size() > 1; }

  std::unique_ptr<NodeTaskCounter> node_tasks_;  // each rank's list of chunks or partitions
  std::unique_ptr<InputChunks> chunks_;
  std::unique_ptr<StagedExchange> staged_;  // scheduled network phase only
};

// Bytes per rank the join needs besides its input (windows, send buffers).
std::uint64_t radix_join_memory_per_rank(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                         int node_count, const RadixJoinConfig& config);

}  // namespace hpcdb
