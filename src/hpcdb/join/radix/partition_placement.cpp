#include "hpcdb/join/radix/partition_placement.hpp"

#include "hpcdb/join/radix/partition_assignment.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

PartitionPlacement place_partitions(const Cluster& cluster, const RadixPlan& plan, const PartitionHistograms& histograms,
                                    const InputChunks& chunks, ReceiveWindows& windows, StagedExchange* staged) {
  const MPI_Comm world = cluster.world();
  const std::size_t partitions = histograms.partitions;
  const std::vector<std::uint64_t> inner = histograms.inner_counts();
  const std::vector<std::uint64_t> outer = histograms.outer_counts();
  PartitionPlacement placement;
  placement.owner = assign_partitions(inner, outer, cluster.size(), plan.config.assignment);
  placement.layout = plan_windows(inner, outer, placement.owner, cluster.size(), plan.tuple_bytes);
  placement.rank_offsets = exclusive_scan_sum(histograms.rank_counts, world);

  // Each of this rank's chunks starts where the rank's earlier chunks of the
  // same partition end.
  const int own = cluster.node_rank();
  std::vector<std::uint64_t> next_start = placement.rank_offsets;
  for (int relation = 0; relation < 2; ++relation) {
    std::uint64_t* next = next_start.data() + static_cast<std::size_t>(relation) * partitions;
    for (unsigned c = 0; c < chunks.chunks(); ++c) {
      std::uint64_t* starts = chunks.starts(own, relation, c);
      const std::uint64_t* counts = chunks.counts(own, relation, c);
      for (std::size_t p = 0; p < partitions; ++p) {
        starts[p] = next[p];
        next[p] += counts[p];
      }
    }
  }

  windows.open(placement.layout.window_bytes[static_cast<std::size_t>(cluster.rank())]);
  if (staged) {
    staged->plan(histograms.rank_counts, partitions, plan.tuple_bytes);
    const std::size_t per_rank = histograms.rank_counts.size();
    placement.all_counts.resize(per_rank * static_cast<std::size_t>(cluster.size()));
    MPI_Allgather(histograms.rank_counts.data(), static_cast<int>(per_rank), MPI_UINT64_T, placement.all_counts.data(),
                  static_cast<int>(per_rank), MPI_UINT64_T, world);
  }
  return placement;
}

}  // namespace hpcdb
