#pragma once
// The radix join's window allocation phase: which rank owns each partition,
// where each partition lies in its owner's window (from the global
// histograms alone, so every rank computes the same layout), where this
// rank's share of each partition starts (MPI_Scan after the lower ranks'
// shares) and, in the node-shared chunk tables, where each of its chunks'
// tuples go; then every window opens at its exact size.
#include <cstdint>
#include <vector>

#include "hpcdb/join/radix/input_chunks.hpp"
#include "hpcdb/join/radix/partition_histograms.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/radix/staged_exchange.hpp"
#include "hpcdb/join/radix/window_layout.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct PartitionPlacement {
  std::vector<int> owner;                   // per partition
  WindowLayout layout;
  std::vector<std::uint64_t> rank_offsets;  // this rank's first slot in each partition, inner then outer
  std::vector<std::uint64_t> all_counts;    // every rank's counts, rank by rank (scheduled exchange only)

  // First inner (R) and outer (S) tuple of partition p in its owner's window.
  template <class Stored>
  const Stored* inner_of(const ReceiveWindows& windows, const Cluster& cluster, std::size_t p) const {
    return reinterpret_cast<const Stored*>(windows.segment(cluster.node_rank_of(owner[p]))) + layout.inner_base[p];
  }
  template <class Stored>
  const Stored* outer_of(const ReceiveWindows& windows, const Cluster& cluster, std::size_t p) const {
    const std::uint64_t region = layout.outer_region_offset[static_cast<std::size_t>(owner[p])];
    return reinterpret_cast<const Stored*>(windows.segment(cluster.node_rank_of(owner[p])) + region) + layout.outer_base[p];
  }
};

// Collective. Writes this rank's chunks' write starts into `chunks`, opens
// `windows` and lays out `staged` (when the exchange is scheduled).
PartitionPlacement place_partitions(const Cluster& cluster, const RadixPlan& plan, const PartitionHistograms& histograms,
                                    const InputChunks& chunks, ReceiveWindows& windows, StagedExchange* staged);

}  // namespace hpcdb
