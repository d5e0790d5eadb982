#include "hpcdb/join/radix/partition_histograms.hpp"

#include <algorithm>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/kernels/radix_histogram.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

std::vector<std::uint64_t> PartitionHistograms::inner_counts() const {
  return {global_counts.begin(), global_counts.begin() + static_cast<std::ptrdiff_t>(partitions)};
}

std::vector<std::uint64_t> PartitionHistograms::outer_counts() const {
  return {global_counts.begin() + static_cast<std::ptrdiff_t>(partitions), global_counts.end()};
}

PartitionHistograms count_partitions(const Cluster& cluster, JoinRun& run, const RadixPlan& plan, ChunkTasks& tasks,
                                     const InputChunks& chunks) {
  const std::size_t partitions = plan.partitions;
  const std::uint64_t mask = partitions - 1;
  const unsigned threads = plan.config.threads;
  std::vector<KeyRidBits> thread_bits(threads);
  tasks.start();
  run.workers(threads, [&](unsigned t) {
    ChunkTask task;
    KeyRidBits seen;
    while (tasks.next(task)) {
      std::uint64_t* counts = chunks.counts(task.node_rank, task.relation, task.chunk);
      std::fill(counts, counts + partitions, 0);
      const KeyRidBits bits = radix_histogram(task.tuples.data(), task.tuples.size(), mask, counts);
      seen.key_or |= bits.key_or;
      seen.rid_or |= bits.rid_or;
    }
    thread_bits[t] = seen;
  });
  if (tasks.node_wide()) MPI_Barrier(cluster.node());  // every chunk of the node is counted

  PartitionHistograms h;
  h.partitions = partitions;
  h.rank_counts.assign(2 * partitions, 0);
  const int own = cluster.node_rank();
  for (int relation = 0; relation < 2; ++relation) {
    std::uint64_t* total = h.rank_counts.data() + static_cast<std::size_t>(relation) * partitions;
    for (unsigned c = 0; c < chunks.chunks(); ++c) {
      const std::uint64_t* counts = chunks.counts(own, relation, c);
      for (std::size_t p = 0; p < partitions; ++p) total[p] += counts[p];
    }
  }
  h.global_counts = h.rank_counts;
  allreduce_in_place(h.global_counts, MPI_SUM, cluster.world());

  if (plan.compressed) {
    KeyRidBits all;
    for (const KeyRidBits& b : thread_bits) {
      all.key_or |= b.key_or;
      all.rid_or |= b.rid_or;
    }
    if (bit_width_of(all.key_or) > plan.key_bits || bit_width_of(all.rid_or) > plan.rid_bits) {
      throw Error("radix join: the relations hold keys or rids wider than those the join was planned for");
    }
  }
  return h;
}

}  // namespace hpcdb
