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

namespace {

// Per worker: tuples per fine bin (key & low_mask(network + digit bits)),
// inner then outer, summed over the chunks the worker counted.
struct DigitTotals {
  std::vector<std::uint32_t> counters;  // the counting kernel's
  std::vector<std::uint64_t> chunk;     // one chunk's fine bins
  std::vector<std::uint64_t> totals;  // [relation][bin]
};

// Counts one chunk on its fine bins and folds them into the chunk's network
// counts and the worker's totals: the same single read of the chunk as a
// plain network histogram.
KeyRidBits count_with_digits(const ChunkTask& task, std::size_t partitions, unsigned digit_bits, std::uint64_t* counts,
                             DigitTotals& digits) {
  const std::size_t bins = partitions << digit_bits;
  digits.chunk.assign(bins, 0);
  const KeyRidBits bits =
      radix_histogram_wide(task.tuples.data(), task.tuples.size(), bins - 1, digits.chunk.data(), digits.counters);
  std::uint64_t* totals = digits.totals.data() + static_cast<std::size_t>(task.relation) * bins;
  for (std::size_t b = 0; b < bins; ++b) {
    counts[b & (partitions - 1)] += digits.chunk[b];
    totals[b] += digits.chunk[b];
  }
  return bits;
}

// Sums the workers' fine bins over every rank and lays them out per
// partition: [relation][p][digit] from [relation][digit][p].
void sum_digit_counts(const Cluster& cluster, std::size_t partitions, unsigned digit_bits,
                      const std::vector<DigitTotals>& workers, PartitionHistograms& h) {
  const std::size_t bins = partitions << digit_bits;
  std::vector<std::uint64_t> sum(2 * bins, 0);
  for (const DigitTotals& w : workers) {
    for (std::size_t b = 0; b < sum.size(); ++b) sum[b] += w.totals[b];
  }
  allreduce_in_place(sum, MPI_SUM, cluster.world());
  h.digit_bits = digit_bits;
  h.digit_counts.assign(2 * bins, 0);
  const std::size_t digits = std::size_t{1} << digit_bits;
  for (std::size_t relation = 0; relation < 2; ++relation) {
    for (std::size_t d = 0; d < digits; ++d) {
      for (std::size_t p = 0; p < partitions; ++p) {
        h.digit_counts[relation * bins + p * digits + d] = sum[relation * bins + d * partitions + p];
      }
    }
  }
}

}  // namespace

PartitionHistograms count_partitions(const Cluster& cluster, WorkerRunner& workers, const RadixPlan& plan, ChunkTasks& tasks,
                                     const InputChunks& chunks) {
  const std::size_t partitions = plan.partitions;
  const std::uint64_t mask = partitions - 1;
  const unsigned threads = plan.config.threads;
  const unsigned digit_bits = plan.precounted_local_bits;
  std::vector<KeyRidBits> thread_bits(threads);
  std::vector<DigitTotals> thread_digits(digit_bits > 0 ? threads : 0);
  for (DigitTotals& d : thread_digits) d.totals.assign(2 * (partitions << digit_bits), 0);
  tasks.start();
  workers.run_workers(threads, [&](unsigned t) {
    ChunkTask task;
    KeyRidBits seen;
    while (tasks.next(task)) {
      std::uint64_t* counts = chunks.counts(task.node_rank, task.relation, task.chunk);
      std::fill(counts, counts + partitions, 0);
      const KeyRidBits bits = digit_bits > 0
                                  ? count_with_digits(task, partitions, digit_bits, counts, thread_digits[t])
                                  : radix_histogram(task.tuples.data(), task.tuples.size(), mask, counts);
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
  if (digit_bits > 0) sum_digit_counts(cluster, partitions, digit_bits, thread_digits, h);

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
