#pragma once
// Which partitions the ranks of a node join, and in what order. Every rank
// classifies every partition the same way (from the global histograms), so
// the node-wide lists are the same on each rank of the node:
//   normal  per node rank, the slices of the partitions it owns, largest
//           first; one worker joins each, and with node sharing any worker
//           of the node may take any of them once its own rank's are done;
//   heavy   this rank's partitions holding more of its work than one thread
//           can balance, joined by all of its threads together (--threads
//           above 1: the threads share one set of tables).
// With one thread per rank and node sharing, a partition holding more of the
// node's work than one rank can balance is cut instead into slices of its
// larger side, each joined against the whole smaller side, one slice per
// rank of the node (in their lists in turn): the smaller side's table is
// built once per slice, the larger side is read once.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/join/radix/partition_histograms.hpp"
#include "hpcdb/join/radix/partition_placement.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Partition p's inner tuples [r_begin, r_end) joined with its outer tuples
// [s_begin, s_end): the whole partition, or one slice of a split one.
struct PartitionSlice {
  std::size_t partition = 0;
  std::uint64_t r_begin = 0, r_end = 0;
  std::uint64_t s_begin = 0, s_end = 0;

  std::uint64_t inner_tuples() const { return r_end - r_begin; }
  std::uint64_t outer_tuples() const { return s_end - s_begin; }
  std::uint64_t work() const { return inner_tuples() + outer_tuples(); }
};

struct PartitionJoinTasks {
  std::vector<std::vector<PartitionSlice>> normal;  // per node rank
  std::vector<std::size_t> heavy;                   // this rank's
  std::uint64_t split_partitions = 0;               // this rank's partitions cut into slices across the node
};

// A partition is split only when it holds more than this many tuples and
// more than a quarter of a worker's fair share of the work.
inline constexpr std::uint64_t kSplitFloorTuples = 65536;

PartitionJoinTasks plan_partition_joins(const Cluster& cluster, unsigned threads, bool share_node_work,
                                        const PartitionHistograms& histograms, const PartitionPlacement& placement);

// How many slices a heavy partition of `inner` and `outer` tuples is cut into
// for `workers` workers: at most one per worker, and no more than its larger
// side is times its smaller (each slice builds or probes the whole smaller
// side again). 1: not split.
unsigned slices_for(std::uint64_t inner, std::uint64_t outer, unsigned workers);

// Cuts partition p into `slices` nearly equal slices of its larger side.
std::vector<PartitionSlice> cut_partition(std::size_t p, std::uint64_t inner, std::uint64_t outer, unsigned slices);

}  // namespace hpcdb
