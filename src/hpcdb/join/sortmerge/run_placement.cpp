#include "hpcdb/join/sortmerge/run_placement.hpp"

#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

RunPlacement place_runs(const Cluster& cluster, const SortMergePlan& plan, const FormedRuns& formed,
                        ReceiveWindows& windows) {
  const MPI_Comm world = cluster.world();
  RunPlacement placement;
  const std::size_t ranks = placement.ranks = static_cast<std::size_t>(cluster.size());
  const std::size_t subranges = placement.subranges = plan.subranges;
  const unsigned threads = placement.threads = plan.config.threads;
  const std::size_t combined = ranks * subranges;

  placement.counts.assign(combined * 2 * threads, 0);
  std::vector<std::uint64_t> mine(combined * 2, 0);  // [c][relation], over threads
  placement.per_destination.assign(ranks * 2, 0);
  for (std::size_t c = 0; c < combined; ++c) {
    for (int relation = 0; relation < 2; ++relation) {
      const std::size_t cr = c * 2 + static_cast<std::size_t>(relation);
      for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t n = formed.chains[t][static_cast<std::size_t>(relation)].count(c, plan.run_length);
        placement.counts[cr * threads + t] = n;
        mine[cr] += n;
      }
      placement.per_destination[(c / subranges) * 2 + static_cast<std::size_t>(relation)] += mine[cr];
    }
  }
  MPI_Reduce_scatter_block(placement.per_destination.data(), placement.window_tuples.data(), 2, MPI_UINT64_T, MPI_SUM,
                           world);
  // Where my data of (range c, relation) starts in its target's region: the
  // earlier sub-ranges of all senders, then the lower ranks' data.
  placement.slot_base = exclusive_scan_sum(mine, world);
  std::vector<std::uint64_t> totals = mine;
  allreduce_in_place(totals, MPI_SUM, world);
  for (std::size_t q = 0; q < ranks; ++q) {
    std::uint64_t before[2] = {0, 0};
    for (std::size_t sub = 0; sub < subranges; ++sub) {
      for (std::size_t relation = 0; relation < 2; ++relation) {
        const std::size_t cr = (q * subranges + sub) * 2 + relation;
        placement.slot_base[cr] += before[relation];
        before[relation] += totals[cr];
      }
    }
  }
  const int per_sender = static_cast<int>(subranges * 2 * threads);
  placement.incoming.resize(ranks * subranges * 2 * threads);
  MPI_Alltoall(placement.counts.data(), per_sender, MPI_UINT64_T, placement.incoming.data(), per_sender, MPI_UINT64_T,
               world);
  // Every rank needs the outer-region offset of each target: from the targets' inner sizes.
  const std::vector<std::uint64_t> inner_sizes = allgather(placement.window_tuples[0], world);
  placement.outer_offsets.resize(ranks);
  for (std::size_t q = 0; q < ranks; ++q) placement.outer_offsets[q] = window_regions(inner_sizes[q], 0, plan.format.tuple_bytes).outer_offset;
  const WindowRegions own = window_regions(placement.window_tuples[0], placement.window_tuples[1], plan.format.tuple_bytes);
  placement.window_bytes = own.bytes;
  windows.open(own.bytes);
  return placement;
}

}  // namespace hpcdb
