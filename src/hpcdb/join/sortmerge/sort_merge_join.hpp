#pragma once
// The distributed sort-merge join (one operator instance per rank).
//
// Set-up (not timed): allocates and pre-faults the node-shared receive arena,
// run staging memory and merge buffers. run() (timed, repeatable):
//   partition          key bounds (MPI_Allreduce), one key range per rank (equal
//                      or sampled splitters), itself cut into sub-ranges; one
//                      pass cutting each sub-range into runs of run_length
//                      tuples, compressed when they fit. Both passes work on
//                      input chunks; with node sharing a worker helps the
//                      other ranks of its node once its own chunks are done
//   window_allocation  window sizes (MPI_Reduce_scatter_block), exclusive offsets
//                      (MPI_Scan), per-sender run counts (MPI_Alltoall)
//   sort               every run is sorted and at once written to its owner
//                      (shared memory, or MPI_Rput), while the next is sorted;
//                      rank i starts with the range of rank i+1 (shifted order)
//   sort_wait          all puts complete, barrier
//   merge              multi-way merge of the received runs (fan-in F), each
//                      sub-range apart, in cache-sized pieces (run_merger.hpp)
//   match              one scan over both sorted relations
#include <memory>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/distributed_join.hpp"
#include "hpcdb/join/join_config.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/net/node_task_counter.hpp"

namespace hpcdb {

class SortMergeJoin : public DistributedJoin {
 public:
  SortMergeJoin(const Cluster& cluster, const SortMergeJoinConfig& config, const Relation& inner, const Relation& outer);
  JoinResult run(const Relation& inner, const Relation& outer) override;

 private:
  struct KeyBounds;
  template <class Format>
  void run_with(Format format, const Relation& inner, const Relation& outer, class ChunkTasks& tasks,
                const KeyBounds& bounds, JoinResult& result, class PhaseClock& clock);

  const Cluster& cluster_;
  SortMergeJoinConfig config_;
  unsigned subranges_ = 1;  // key sub-ranges per rank
  std::size_t block_ = 0;   // tuples per staging block, the longest run
  std::unique_ptr<ReceiveWindows> windows_;
  std::unique_ptr<NodeTaskCounter> node_tasks_;  // each rank's list of input chunks
  unsigned chunks_ = 1;                         // input chunks per fragment and relation
  std::uint64_t help_tuples_ = 0;  // co-located ranks' tuples this rank's workers may take on
  MemoryRegion staging_;  // runs before they are sorted and sent
  MemoryRegion merge_buffer_;
};

// Key sub-ranges per rank: as configured, or enough that each sender
// thread's share of a sub-range is about one run (so that the merge of a
// sub-range has about one run per sender), a power of two between 1 and 1024.
// When the `ranks_per_node` ranks of a node share their work, about half a
// run: a worker that takes on a slower rank's chunks then still forms one
// run per sub-range (a second, short run would make every merge three-way).
unsigned sort_merge_subranges(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                              const SortMergeJoinConfig& config, int ranks_per_node = 1);

// Tuples per staging block, which is also the longest run: the run length
// (rounded up to whole cache lines), or less when a sender thread's expected
// share of a key range is under half a run. Every (thread, relation, range)
// keeps a block open while partitioning, so with many ranges and little data,
// blocks of the full run length would need far more staging memory than the
// data itself (3 ranks x 3 threads x 1024 sub-ranges: 9 GiB per rank for
// 123457 tuples).
std::size_t sort_merge_staging_block(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                     const SortMergeJoinConfig& config, int ranks_per_node = 1);

std::uint64_t sort_merge_join_memory_per_rank(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                              const SortMergeJoinConfig& config, int ranks_per_node = 1);

}  // namespace hpcdb
