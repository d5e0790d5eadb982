#pragma once
// The radix join's local phases, once every window is complete: each
// received partition is joined where it lies (node-shared memory, so with
// node sharing any rank of the node may join any partition its node holds),
// by an optional local radix pass in cache (local_partition) and a
// cache-resident build and probe per final partition (build_probe).
// Partitions too large for one thread (partition_join_tasks.hpp) are joined
// by all of the owner's threads together over shared read-only tables, or,
// with one thread per rank, cut into slices that the node's ranks share.
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/join/radix/partition_histograms.hpp"
#include "hpcdb/join/radix/partition_join_tasks.hpp"
#include "hpcdb/join/radix/partition_joiner.hpp"
#include "hpcdb/join/radix/partition_placement.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/kernels/hash_table.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_task_counter.hpp"

namespace hpcdb {

struct PartitionJoinTotals {
  MatchCollector matches;
  double local_partition_seconds = 0;  // of the phase's time, in local radix passes (mean over threads)
  std::uint64_t build_splits = 0;      // build partitions split into several tables
  std::uint64_t probe_splits = 0;      // partitions joined by all threads, or cut into slices across the node
  std::uint64_t peer_partitions = 0;   // co-located ranks' partitions (or slices) joined here
};

namespace partition_join {

// One heavy partition, joined by all `threads` workers of the rank: thread 0
// runs the local pass, then every thread builds some of the final
// partitions' tables and probes chunks of their S partitions.
template <class Format>
class SharedPartitionJoin {
 public:
  using Stored = typename Format::Stored;

  SharedPartitionJoin(Format format, unsigned local_bits, unsigned threads)
      : format_(format), local_bits_(local_bits), threads_(threads), sync_(static_cast<std::ptrdiff_t>(threads)) {}

  // Every worker calls it, with its own joiner and collector.
  void join(unsigned t, PartitionJoiner<Format>& joiner, const Stored* r, std::uint64_t nr, const Stored* s,
            std::uint64_t ns, FirstDigitCounts counted, MatchCollector& out) {
    sync_.arrive_and_wait();
    if (t == 0) prepare(joiner, r, nr, s, ns, counted);
    sync_.arrive_and_wait();
    std::size_t i = 0;
    while (builds_->next(i)) {
      const std::uint64_t rb = parts_.r_start[i];
      tables_[i].build(parts_.r + rb, parts_.r_start[i + 1] - rb);
    }
    sync_.arrive_and_wait();
    std::size_t c = 0;
    while (probes_->next(c)) {
      const Chunk& chunk = chunks_[c];
      const std::uint64_t sb = parts_.s_start[chunk.partition];
      joiner.probe(tables_[chunk.partition], parts_.s + sb + chunk.begin, chunk.end - chunk.begin, out);
    }
    // The final partitions lie in thread 0's scratch, which its next local
    // pass overwrites: no one may still be probing them then.
    sync_.arrive_and_wait();
  }

 private:
  struct Chunk {
    std::size_t partition;
    std::uint64_t begin, end;
  };

  void prepare(PartitionJoiner<Format>& joiner, const Stored* r, std::uint64_t nr, const Stored* s, std::uint64_t ns,
               FirstDigitCounts counted) {
    Stopwatch watch;
    if (local_bits_ > 0) {
      parts_ = joiner.partition(r, nr, s, ns, counted);
    } else {
      parts_ = {r, s, {0, nr}, {0, ns}};
    }
    joiner.local_partition_seconds += watch.seconds();
    const std::size_t count = parts_.count();
    tables_.assign(count, BucketChainTable<Format>(format_, local_bits_));
    chunks_.clear();
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t n = parts_.s_start[i + 1] - parts_.s_start[i];
      if (n == 0 || parts_.r_start[i + 1] == parts_.r_start[i]) continue;
      const std::uint64_t chunk = std::max<std::uint64_t>(16384, n / (4 * threads_));
      for (std::uint64_t b = 0; b < n; b += chunk) chunks_.push_back({i, b, std::min(n, b + chunk)});
    }
    builds_ = std::make_unique<TaskCounter>(count);
    probes_ = std::make_unique<TaskCounter>(chunks_.size());
  }

  Format format_;
  unsigned local_bits_;
  unsigned threads_;
  std::barrier<> sync_;
  LocalPartitions<Stored> parts_;
  std::vector<BucketChainTable<Format>> tables_;
  std::vector<Chunk> chunks_;
  std::unique_ptr<TaskCounter> builds_;
  std::unique_ptr<TaskCounter> probes_;
};

}  // namespace partition_join

// Joins every partition this rank (and, with node sharing, its node) holds.
// Collective over the node (the task lists).
template <class Format>
PartitionJoinTotals join_partitions(const Cluster& cluster, WorkerRunner& workers, const RadixPlan& plan, Format format,
                                    const PartitionHistograms& histograms, const PartitionPlacement& placement,
                                    const ReceiveWindows& windows, NodeTaskCounter& node_tasks) {
  using Stored = typename Format::Stored;
  const unsigned threads = plan.config.threads;
  const PartitionJoinTasks tasks = plan_partition_joins(cluster, threads, plan.share_node_work, histograms, placement);

  // Every thread's local-pass scratch holds the largest slice one thread
  // joins alone; a heavy partition's pass (thread 0) grows it if need be.
  std::uint64_t largest_r = 0;
  std::uint64_t largest_s = 0;
  for (const std::vector<PartitionSlice>& list : tasks.normal) {
    for (const PartitionSlice& slice : list) {
      largest_r = std::max(largest_r, slice.inner_tuples());
      largest_s = std::max(largest_s, slice.outer_tuples());
    }
  }
  std::vector<std::unique_ptr<PartitionJoiner<Format>>> joiners;
  std::vector<MatchCollector> collectors(threads);
  for (unsigned t = 0; t < threads; ++t) {
    joiners.push_back(
        std::make_unique<PartitionJoiner<Format>>(format, plan.local_passes, plan.build_budget, largest_r, largest_s));
    collectors[t].keep_pairs = plan.config.keep_pairs;
  }
  partition_join::SharedPartitionJoin<Format> shared(format, plan.bits.local, threads);
  std::vector<std::uint64_t> peer_partitions(threads, 0);
  std::vector<std::size_t> counts;
  for (const std::vector<PartitionSlice>& list : tasks.normal) counts.push_back(list.size());
  node_tasks.start(std::move(counts));
  // The next slice to join: own first, then (node sharing) the others'.
  auto next_normal = [&](const PartitionSlice*& slice) {
    NodeTaskCounter::Task task;
    if (!node_tasks.next(task, plan.share_node_work)) return false;
    slice = &tasks.normal[static_cast<std::size_t>(task.list)][task.index];
    return true;
  };
  const int me = cluster.rank();
  // Partition p's first-digit counts, where the histogram phase took them.
  auto counted = [&](std::size_t p) { return FirstDigitCounts{histograms.inner_digits(p), histograms.outer_digits(p)}; };
  workers.run_workers(threads, [&](unsigned t) {
    PartitionJoiner<Format>& joiner = *joiners[t];
    for (std::size_t p : tasks.heavy) {
      shared.join(t, joiner, placement.inner_of<Stored>(windows, cluster, p), histograms.inner(p),
                  placement.outer_of<Stored>(windows, cluster, p), histograms.outer(p), counted(p), collectors[t]);
    }
    const PartitionSlice* slice = nullptr;
    while (next_normal(slice)) {
      const std::size_t p = slice->partition;
      if (placement.owner[p] != me) ++peer_partitions[t];
      // A slice of a split partition counts its own digits.
      const bool whole = slice->inner_tuples() == histograms.inner(p) && slice->outer_tuples() == histograms.outer(p);
      joiner.join(placement.inner_of<Stored>(windows, cluster, p) + slice->r_begin, slice->inner_tuples(),
                  placement.outer_of<Stored>(windows, cluster, p) + slice->s_begin, slice->outer_tuples(), collectors[t],
                  whole ? counted(p) : FirstDigitCounts{});
    }
  });

  PartitionJoinTotals totals;
  totals.probe_splits = tasks.heavy.size() + tasks.split_partitions;
  for (unsigned t = 0; t < threads; ++t) {
    totals.local_partition_seconds += joiners[t]->local_partition_seconds / threads;
    totals.build_splits += joiners[t]->build_splits;
    totals.peer_partitions += peer_partitions[t];
    totals.matches.merge(std::move(collectors[t]));
  }
  return totals;
}

}  // namespace hpcdb
