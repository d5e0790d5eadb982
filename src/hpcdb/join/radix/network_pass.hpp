#pragma once
// The radix join's network partitioning phase: every worker takes input
// chunks (its own rank's first, then, with node sharing, co-located ranks'),
// partitions them on the low key bits in the plan's format and writes each
// partition straight to its place: a co-located owner's window (stores), a
// window on another node (one-sided puts from send buffers), or, when the
// exchange is scheduled, this rank's staging, from where the exchange ships
// whole partitions afterwards.
#include <cstdint>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/join/radix/input_chunks.hpp"
#include "hpcdb/join/radix/network_partitioner.hpp"
#include "hpcdb/join/radix/partition_placement.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/radix/staged_exchange.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct NetworkPassTotals {
  std::uint64_t puts = 0;
  std::uint64_t bytes_put = 0;
  std::uint64_t peer_chunks = 0;  // chunks of co-located ranks partitioned here
};

// Collective over the node (the chunk tasks).
template <class Format>
NetworkPassTotals partition_over_network(const Cluster& cluster, WorkerRunner& workers, const RadixPlan& plan, Format format,
                                         ChunkTasks& tasks, const InputChunks& chunks,
                                         const PartitionPlacement& placement, const ReceiveWindows& windows,
                                         const MemoryRegion& send_buffers, const StagedExchange* staged) {
  using Stored = typename Format::Stored;
  const std::size_t partitions = plan.partitions;
  const unsigned threads = plan.config.threads;
  const std::size_t buffer_items = plan.config.buffer_bytes / sizeof(Stored);
  const int own = cluster.node_rank();
  OneSidedWriter* writer = windows.writer();
  std::vector<NetworkPassStats> pass_stats(threads);
  std::vector<std::uint64_t> peer_chunks(threads, 0);

  // Where a chunk's tuples of partition p go.
  auto target_of = [&](const ChunkTask& task, std::size_t p, const std::uint64_t* starts) {
    PartitionTarget<Stored> target;
    if (staged) {  // this rank's own share of p, in staging
      const std::uint64_t within = starts[p] - placement.rank_offsets[static_cast<std::size_t>(task.relation) * partitions + p];
      target.direct = reinterpret_cast<Stored*>(staged->slot(task.relation, p, within));
      return target;
    }
    const bool is_inner = task.relation == 0;
    const int q = placement.owner[p];
    const std::uint64_t slot = (is_inner ? placement.layout.inner_base[p] : placement.layout.outer_base[p]) + starts[p];
    const std::uint64_t region = is_inner ? 0 : placement.layout.outer_region_offset[static_cast<std::size_t>(q)];
    const WindowPlace place = windows.place(q, region + slot * sizeof(Stored));
    target.direct = reinterpret_cast<Stored*>(place.direct);
    target.rank = place.rank;
    target.disp_bytes = place.offset;
    return target;
  };

  tasks.start();  // after every rank of the node has written its starts
  workers.run_workers(threads, [&](unsigned t) {
    Stored* buffers = writer != nullptr && plan.send_buffer_bytes > 0
                          ? reinterpret_cast<Stored*>(static_cast<std::byte*>(send_buffers.data()) +
                                                      t * (plan.send_buffer_bytes / threads))
                          : nullptr;
    NetworkPartitioner<Format> partitioner(partitions, buffer_items, plan.config.buffers_per_partition, buffers);
    std::vector<PartitionTarget<Stored>> targets(partitions);
    ChunkTask task;
    ChunkTask previous;
    bool open = false;  // a pass is under way, over `previous` and the chunks before it
    while (tasks.next(task)) {
      if (task.node_rank != own) ++peer_chunks[t];
      const std::uint64_t* counts = chunks.counts(task.node_rank, task.relation, task.chunk);
      if (open && task.node_rank == previous.node_rank && task.relation == previous.relation &&
          task.chunk == previous.chunk + 1) {
        partitioner.extend(counts);  // its tuples go right after the previous chunk's
      } else {
        if (open) partitioner.finish(writer, pass_stats[t]);
        const std::uint64_t* starts = chunks.starts(task.node_rank, task.relation, task.chunk);
        for (std::size_t p = 0; p < partitions; ++p) targets[p] = target_of(task, p, starts);
        partitioner.start(targets, counts);
        open = true;
      }
      partitioner.push(task.tuples.data(), task.tuples.size(), format, writer, pass_stats[t]);
      previous = task;
    }
    if (open) partitioner.finish(writer, pass_stats[t]);
  });

  NetworkPassTotals totals;
  for (unsigned t = 0; t < threads; ++t) {
    totals.puts += pass_stats[t].puts;
    totals.bytes_put += pass_stats[t].bytes_put;
    totals.peer_chunks += peer_chunks[t];
  }
  return totals;
}

}  // namespace hpcdb
