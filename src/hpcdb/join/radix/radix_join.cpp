#include "hpcdb/join/radix/radix_join.hpp"

#include <algorithm>
#include <barrier>
#include <memory>
#include <numeric>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/kernels/radix_histogram.hpp"
#include "hpcdb/kernels/tuple_format.hpp"
#include "hpcdb/join/radix/network_partitioner.hpp"
#include "hpcdb/join/radix/partition_assignment.hpp"
#include "hpcdb/join/radix/partition_joiner.hpp"
#include "hpcdb/join/radix/window_layout.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/one_sided_writer.hpp"

namespace hpcdb {

namespace {

struct GlobalBits {
  unsigned key_bits = 0;
  unsigned rid_bits = 0;
};

GlobalBits global_bits(const Relation& inner, const Relation& outer, MPI_Comm comm) {
  std::uint64_t ors[2] = {0, 0};
  for (const Relation* rel : {&inner, &outer}) {
    for (const Tuple& t : rel->tuples) {
      ors[0] |= t.key;
      ors[1] |= t.rid;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, ors, 2, MPI_UINT64_T, MPI_BOR, comm);
  return {bit_width_of(ors[0]), bit_width_of(ors[1])};
}

bool use_compression(const RadixJoinConfig& config, GlobalBits bits, unsigned network_bits) {
  return config.compression == Compression::automatic && compressible(bits.key_bits, bits.rid_bits, network_bits);
}

std::size_t send_buffer_bytes(const RadixJoinConfig& config, unsigned network_bits) {
  return static_cast<std::size_t>(config.threads) * (std::size_t{1} << network_bits) * config.buffers_per_partition *
         config.buffer_bytes;
}

}  // namespace

struct RadixJoin::Histograms {
  std::size_t partitions = 0;
  std::vector<std::uint64_t> rank_counts;    // inner then outer, this rank
  std::vector<std::uint64_t> global_counts;  // inner then outer, all ranks
  GlobalBits bits;
};

std::uint64_t radix_join_memory_per_rank(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                         int node_count, const RadixJoinConfig& config) {
  const CpuInfo cpu = detect_cpu();
  const RadixBits bits = choose_radix_bits(inner_tuples, ranks, config.threads, 16, cpu, config.network_bits, config.local_bits);
  std::uint64_t bytes = ReceiveWindows::capacity_for(inner_tuples, outer_tuples, ranks, 16);
  const std::size_t partitions = std::size_t{1} << bits.network;
  // Per network partition: each worker's write-combining line, histograms and
  // write cursors, and the rank's partition plan (bases, sizes, owners).
  // Measured: about 100 bytes per rank and 220 per worker thread and
  // partition, which rules the memory from 2^20 partitions on (5 GiB at 2^24
  // for 1 rank and thread); rounded up.
  constexpr std::uint64_t kPlanBytesPerPartition = 128;
  constexpr std::uint64_t kWorkerBytesPerPartition = 256;
  bytes += partitions * (kPlanBytesPerPartition + kWorkerBytesPerPartition * config.threads);
  bytes += InputChunks::bytes_for(
      InputChunks::chunks_for(config.input_chunks, std::max(inner_tuples, outer_tuples), ranks, config.threads, partitions),
      partitions);
  if (config.scheduled) {
    bytes += (inner_tuples + outer_tuples) / static_cast<std::uint64_t>(ranks) * 16;  // staging
  } else if (config.force_put || node_count > 1) {
    bytes += send_buffer_bytes(config, bits.network);
  }
  return bytes;
}

RadixJoin::RadixJoin(const Cluster& cluster, const RadixJoinConfig& config, const Relation& inner, const Relation& outer)
    : cluster_(cluster), config_(config), cpu_(detect_cpu()) {
  // A schedule orders whole partitions of each rank's own data: no help between ranks.
  if (config_.scheduled) config_.share_node_work = false;
  if (config.threads == 0) throw UsageError("--threads must be at least 1");
  if (config.buffers_per_partition < 1) throw UsageError("--buffers-per-partition must be at least 1");
  if (config.input_chunks > 4096) throw UsageError("--input-chunks must be at most 4096");
  if (config.buffer_bytes < kCacheLine || config.buffer_bytes % kCacheLine != 0) {
    throw UsageError("--buffer-size must be a positive multiple of 64 bytes");
  }
  const GlobalBits bits = global_bits(inner, outer, cluster.world());
  bits_ = choose_radix_bits(inner.global_size, cluster.size(), config.threads, 8, cpu_, config.network_bits, config.local_bits);
  unsigned tuple_bytes = 8;
  if (!use_compression(config, bits, bits_.network)) {
    tuple_bytes = 16;
    bits_ = choose_radix_bits(inner.global_size, cluster.size(), config.threads, 16, cpu_, config.network_bits, config.local_bits);
  }
  if (bits_.network > 24) throw UsageError("--network-bits must be at most 24");
  if (bits_.network + bits_.local > 40) throw UsageError("--network-bits plus --local-bits must be at most 40");

  const bool needs_puts = !config.scheduled && (config.force_put || cluster.node_count() > 1);
  windows_ = std::make_unique<ReceiveWindows>(
      cluster, ReceiveWindows::capacity_for(inner.global_size, outer.global_size, cluster.size(), tuple_bytes), needs_puts);
  if (needs_puts) send_buffers_ = MemoryRegion(send_buffer_bytes(config, bits_.network), Prefault::yes);
  if (config.scheduled) staged_ = std::make_unique<StagedExchange>(inner.tuples.size(), outer.tuples.size());
  node_tasks_ = std::make_unique<NodeTaskCounter>(cluster);
  const std::size_t partitions = std::size_t{1} << bits_.network;
  chunks_ = std::make_unique<InputChunks>(
      cluster,
      InputChunks::chunks_for(config.input_chunks, std::max(inner.global_size, outer.global_size), cluster.size(),
                              config.threads, partitions),
      partitions);
}

JoinResult RadixJoin::run(const Relation& inner, const Relation& outer) {
  const MPI_Comm world = cluster_.world();
  const unsigned threads = config_.threads;
  const std::size_t partitions = std::size_t{1} << bits_.network;
  const std::uint64_t mask = partitions - 1;

  JoinResult result;
  result.inner_tuples = inner.global_size;
  result.outer_tuples = outer.global_size;
  PhaseClock clock;
  MPI_Barrier(world);
  const double start = MPI_Wtime();

  clock.start("histogram");
  ChunkTasks tasks(cluster_, *node_tasks_, chunks_->chunks(), shares_node_work(), inner, outer);
  std::vector<KeyRidBits> thread_bits(threads);
  const int own = cluster_.node_rank();
  tasks.start();
  run_on_threads(threads, [&](unsigned t) {
    ChunkTask task;
    while (tasks.next(task)) {
      std::uint64_t* counts = chunks_->counts(task.node_rank, task.relation, task.chunk);
      std::fill(counts, counts + partitions, 0);
      const KeyRidBits bits = radix_histogram(task.tuples.data(), task.tuples.size(), mask, counts);
      thread_bits[t].key_or |= bits.key_or;
      thread_bits[t].rid_or |= bits.rid_or;
    }
  });
  if (tasks.node_wide()) MPI_Barrier(cluster_.node());  // every chunk of the node is counted
  Histograms histograms;
  histograms.partitions = partitions;
  histograms.rank_counts.assign(2 * partitions, 0);
  for (int relation = 0; relation < 2; ++relation) {
    std::uint64_t* total = histograms.rank_counts.data() + relation * partitions;
    for (unsigned c = 0; c < chunks_->chunks(); ++c) {
      const std::uint64_t* counts = chunks_->counts(own, relation, c);
      for (std::size_t p = 0; p < partitions; ++p) total[p] += counts[p];
    }
  }
  std::uint64_t ors[2] = {0, 0};
  for (const KeyRidBits& b : thread_bits) {
    ors[0] |= b.key_or;
    ors[1] |= b.rid_or;
  }
  histograms.global_counts = histograms.rank_counts;
  allreduce_in_place(histograms.global_counts, MPI_SUM, world);
  MPI_Allreduce(MPI_IN_PLACE, ors, 2, MPI_UINT64_T, MPI_BOR, world);
  histograms.bits = {bit_width_of(ors[0]), bit_width_of(ors[1])};

  clock.start("window_allocation");
  if (use_compression(config_, histograms.bits, bits_.network)) {
    partition_and_join(CompressedFormat{bits_.network, histograms.bits.rid_bits}, tasks, histograms, result, clock);
  } else {
    partition_and_join(WideFormat{bits_.network}, tasks, histograms, result, clock);
  }
  clock.stop();
  const double total = MPI_Wtime() - start;

  summarize_over_ranks(cluster_, clock, total, result);
  result.radix.build_splits = allreduce(result.radix.build_splits, MPI_SUM, world);
  result.radix.exchange_waiting = allreduce(result.radix.exchange_waiting, MPI_MAX, world);
  result.radix.probe_splits = allreduce(result.radix.probe_splits, MPI_SUM, world);
  result.sharing.peer_chunks = allreduce(result.sharing.peer_chunks, MPI_SUM, world);
  result.sharing.peer_partitions = allreduce(result.sharing.peer_partitions, MPI_SUM, world);
  result.sharing.input_chunks = chunks_->chunks();
  result.sharing.node_wide = tasks.node_wide();
  result.sharing.partitions_shared = shares_node_work();
  result.radix.network_bits = bits_.network;
  result.radix.local_bits = bits_.local;
  result.radix.key_bits = histograms.bits.key_bits;
  result.radix.rid_bits = histograms.bits.rid_bits;
  return result;
}

template <class Format>
void RadixJoin::partition_and_join(Format format, ChunkTasks& tasks, const Histograms& histograms, JoinResult& result,
                                   PhaseClock& clock) {
  using Stored = typename Format::Stored;
  const MPI_Comm world = cluster_.world();
  const int me = cluster_.rank();
  const unsigned threads = config_.threads;
  const std::size_t partitions = histograms.partitions;
  result.radix.compressed = sizeof(Stored) == 8;
  result.radix.tuple_bytes = sizeof(Stored);

  // --- window allocation: assignment, exact sizes, exclusive offsets
  const std::vector<std::uint64_t> global_inner(histograms.global_counts.begin(),
                                                histograms.global_counts.begin() + static_cast<std::ptrdiff_t>(partitions));
  const std::vector<std::uint64_t> global_outer(histograms.global_counts.begin() + static_cast<std::ptrdiff_t>(partitions),
                                                histograms.global_counts.end());
  const std::vector<int> owner = assign_partitions(global_inner, global_outer, cluster_.size(), config_.assignment);
  const WindowLayout layout = plan_windows(global_inner, global_outer, owner, cluster_.size(), sizeof(Stored));
  const std::vector<std::uint64_t> rank_offsets = exclusive_scan_sum(histograms.rank_counts, world);

  // Each of this rank's chunks starts where the rank's earlier chunks of the
  // same partition end.
  const int own = cluster_.node_rank();
  std::vector<std::uint64_t> next_start = rank_offsets;  // inner then outer, per partition
  for (int relation = 0; relation < 2; ++relation) {
    std::uint64_t* next = next_start.data() + static_cast<std::size_t>(relation) * partitions;
    for (unsigned c = 0; c < chunks_->chunks(); ++c) {
      std::uint64_t* starts = chunks_->starts(own, relation, c);
      const std::uint64_t* counts = chunks_->counts(own, relation, c);
      for (std::size_t p = 0; p < partitions; ++p) {
        starts[p] = next[p];
        next[p] += counts[p];
      }
    }
  }

  const std::uint64_t my_window = layout.window_bytes[static_cast<std::size_t>(me)];
  windows_->open(my_window);
  OneSidedWriter* writer = windows_->writer();
  std::vector<std::uint64_t> all_counts;  // every rank's rank_counts (scheduled only)
  if (staged_) {
    staged_->plan(histograms.rank_counts, partitions, sizeof(Stored));
    all_counts.resize(histograms.rank_counts.size() * static_cast<std::size_t>(cluster_.size()));
    MPI_Allgather(histograms.rank_counts.data(), static_cast<int>(histograms.rank_counts.size()), MPI_UINT64_T,
                  all_counts.data(), static_cast<int>(histograms.rank_counts.size()), MPI_UINT64_T, world);
  }

  // --- network partitioning
  clock.start("network_partition");
  const std::size_t buffer_items = config_.buffer_bytes / sizeof(Stored);
  std::vector<NetworkPassStats> pass_stats(threads);
  std::vector<std::uint64_t> peer_chunks(threads, 0);
  tasks.start();  // after every rank of the node has written its starts
  run_on_threads(threads, [&](unsigned t) {
    Stored* buffers = windows_->needs_puts() ? reinterpret_cast<Stored*>(static_cast<std::byte*>(send_buffers_.data()) +
                                                              t * send_buffer_bytes(config_, bits_.network) / threads)
                                  : nullptr;
    NetworkPartitioner<Format> partitioner(partitions, buffer_items, config_.buffers_per_partition, buffers);
    std::vector<PartitionTarget<Stored>> targets(partitions);
    ChunkTask task;
    ChunkTask previous;
    bool open = false;  // a pass is under way, over `previous` and the chunks before it
    while (tasks.next(task)) {
      if (task.node_rank != own) ++peer_chunks[t];
      const std::uint64_t* counts = chunks_->counts(task.node_rank, task.relation, task.chunk);
      if (open && task.node_rank == previous.node_rank && task.relation == previous.relation &&
          task.chunk == previous.chunk + 1) {
        partitioner.extend(counts);  // its tuples go right after the previous chunk's
      } else {
        if (open) partitioner.finish(writer, pass_stats[t]);
        const bool is_inner = task.relation == 0;
        const std::vector<std::uint64_t>& base = is_inner ? layout.inner_base : layout.outer_base;
        const std::uint64_t* starts = chunks_->starts(task.node_rank, task.relation, task.chunk);
        for (std::size_t p = 0; p < partitions; ++p) {
          if (staged_) {  // this rank's own share of p, in staging
            const std::uint64_t within = starts[p] - rank_offsets[static_cast<std::size_t>(task.relation) * partitions + p];
            targets[p].direct = reinterpret_cast<Stored*>(staged_->slot(task.relation, p, within));
            continue;
          }
          const std::uint64_t slot = base[p] + starts[p];
          const int q = owner[p];
          const std::uint64_t region = is_inner ? 0 : layout.outer_region_offset[static_cast<std::size_t>(q)];
          const int node_rank = cluster_.node_rank_of(q);
          if (node_rank >= 0 && !config_.force_put) {
            targets[p].direct = reinterpret_cast<Stored*>(windows_->segment(node_rank) + region) + slot;
          } else {
            targets[p].direct = nullptr;
            targets[p].rank = q;
            targets[p].disp_bytes = region + slot * sizeof(Stored);
          }
        }
        partitioner.start(targets, counts);
        open = true;
      }
      partitioner.push(task.tuples.data(), task.tuples.size(), format, writer, pass_stats[t]);
      previous = task;
    }
    if (open) partitioner.finish(writer, pass_stats[t]);
  });
  for (unsigned t = 0; t < threads; ++t) result.sharing.peer_chunks += peer_chunks[t];
  for (const NetworkPassStats& s : pass_stats) {
    result.puts += s.puts;
    result.bytes_put += s.bytes_put;
  }
  for (std::size_t p = 0; p < partitions; ++p) {
    if (owner[p] != me) {
      result.bytes_sent += (histograms.rank_counts[p] + histograms.rank_counts[partitions + p]) * sizeof(Stored);
    }
  }

  if (staged_) {
    clock.start("network_exchange");
    const ExchangeStats shipped = staged_->ship(cluster_, {windows_->own(), my_window}, layout, owner, all_counts,
                                                config_.exchange);
    if (config_.exchange.transport == ExchangeTransport::put) {
      result.puts += shipped.transfers;
      result.bytes_put += shipped.bytes;
    }
    result.radix.exchange_rounds = shipped.rounds;
    result.radix.exchange_waiting = shipped.waiting_seconds;
  }

  clock.start("network_wait");
  windows_->close();

  // --- local partitioning and build/probe. Every receive window lies in
  // node-shared memory, so with node sharing any rank of the node may join
  // any partition its node holds: each rank's workers take its own
  // partitions first, then help the other ranks of the node with theirs.
  clock.add("local_partition", 0);
  clock.start("build_probe");
  auto work_of = [&](std::size_t p) { return global_inner[p] + global_outer[p]; };
  std::vector<std::uint64_t> owned_tuples(static_cast<std::size_t>(cluster_.size()), 0);
  for (std::size_t p = 0; p < partitions; ++p) owned_tuples[static_cast<std::size_t>(owner[p])] += work_of(p);
  // A partition holding more than a share of its owner's work that one thread
  // can balance is joined by all of the owner's threads together over shared
  // read-only tables. Every rank classifies every partition the same way, so
  // the node-wide list is the same on each rank of the node.
  auto is_heavy = [&](std::size_t p) {
    const std::uint64_t share = owned_tuples[static_cast<std::size_t>(owner[p])] / (4 * threads);
    return threads > 1 && work_of(p) > std::max<std::uint64_t>(65536, share);
  };
  // The partitions each rank of the node owns, largest first; heavy ones
  // stay with their owner's threads.
  std::vector<std::vector<std::size_t>> normal(static_cast<std::size_t>(cluster_.node_size()));
  std::vector<std::size_t> heavy;
  for (std::size_t p = 0; p < partitions; ++p) {
    const int list = cluster_.node_rank_of(owner[p]);
    if (list < 0) continue;
    if (!is_heavy(p)) {
      normal[static_cast<std::size_t>(list)].push_back(p);
    } else if (owner[p] == me) {
      heavy.push_back(p);
    }
  }
  auto by_work = [&](std::size_t a, std::size_t b) { return work_of(a) > work_of(b); };
  for (std::vector<std::size_t>& list : normal) std::stable_sort(list.begin(), list.end(), by_work);
  std::stable_sort(heavy.begin(), heavy.end(), by_work);
  result.radix.probe_splits = heavy.size();

  const std::uint64_t budget = cache_resident_build_tuples(sizeof(Stored), cpu_);
  std::vector<std::unique_ptr<PartitionJoiner<Format>>> joiners;
  std::vector<MatchCollector> collectors(threads);
  for (unsigned t = 0; t < threads; ++t) {
    joiners.push_back(std::make_unique<PartitionJoiner<Format>>(format, bits_.local, budget));
    collectors[t].keep_pairs = config_.keep_pairs;
  }
  auto segment_of = [&](std::size_t p) { return windows_->segment(cluster_.node_rank_of(owner[p])); };
  auto inner_of = [&](std::size_t p) { return reinterpret_cast<const Stored*>(segment_of(p)) + layout.inner_base[p]; };
  auto outer_of = [&](std::size_t p) {
    const std::uint64_t region = layout.outer_region_offset[static_cast<std::size_t>(owner[p])];
    return reinterpret_cast<const Stored*>(segment_of(p) + region) + layout.outer_base[p];
  };

  struct SharedStep {
    LocalPartitions<Stored> parts;
    std::vector<BucketChainTable<Format>> tables;
    struct Chunk {
      std::size_t partition;
      std::uint64_t begin, end;
    };
    std::vector<Chunk> chunks;
    std::unique_ptr<TaskCounter> builds;
    std::unique_ptr<TaskCounter> probes;
  } step;
  std::barrier sync(static_cast<std::ptrdiff_t>(threads));
  std::vector<std::uint64_t> peer_partitions(threads, 0);
  std::vector<std::size_t> counts;
  for (const std::vector<std::size_t>& list : normal) counts.push_back(list.size());
  node_tasks_->start(std::move(counts));
  // The next partition to join: own first, then (node sharing) the others'.
  const bool help_others = shares_node_work();
  auto next_normal = [&](std::size_t& p) {
    NodeTaskCounter::Task task;
    if (!node_tasks_->next(task, help_others)) return false;
    p = normal[static_cast<std::size_t>(task.list)][task.index];
    return true;
  };

  run_on_threads(threads, [&](unsigned t) {
    PartitionJoiner<Format>& joiner = *joiners[t];
    for (std::size_t p : heavy) {
      sync.arrive_and_wait();
      if (t == 0) {
        Stopwatch watch;
        if (bits_.local > 0) {
          step.parts = joiner.partition(inner_of(p), global_inner[p], outer_of(p), global_outer[p]);
        } else {
          step.parts = {inner_of(p), outer_of(p), {0, global_inner[p]}, {0, global_outer[p]}};
        }
        joiner.local_partition_seconds += watch.seconds();
        const std::size_t count = step.parts.count();
        step.tables.assign(count, BucketChainTable<Format>(format, bits_.local));
        step.chunks.clear();
        for (std::size_t i = 0; i < count; ++i) {
          const std::uint64_t ns = step.parts.s_start[i + 1] - step.parts.s_start[i];
          if (ns == 0 || step.parts.r_start[i + 1] == step.parts.r_start[i]) continue;
          const std::uint64_t chunk = std::max<std::uint64_t>(16384, ns / (4 * threads));
          for (std::uint64_t b = 0; b < ns; b += chunk) step.chunks.push_back({i, b, std::min(ns, b + chunk)});
        }
        step.builds = std::make_unique<TaskCounter>(count);
        step.probes = std::make_unique<TaskCounter>(step.chunks.size());
      }
      sync.arrive_and_wait();
      std::size_t i = 0;
      while (step.builds->next(i)) {
        const std::uint64_t rb = step.parts.r_start[i];
        step.tables[i].build(step.parts.r + rb, step.parts.r_start[i + 1] - rb);
      }
      sync.arrive_and_wait();
      std::size_t c = 0;
      while (step.probes->next(c)) {
        const auto& chunk = step.chunks[c];
        const std::uint64_t sb = step.parts.s_start[chunk.partition];
        joiner.probe(step.tables[chunk.partition], step.parts.s + sb + chunk.begin, chunk.end - chunk.begin, collectors[t]);
      }
    }
    std::size_t p = 0;
    while (next_normal(p)) {
      if (owner[p] != me) ++peer_partitions[t];
      joiner.join(inner_of(p), global_inner[p], outer_of(p), global_outer[p], collectors[t]);
    }
  });

  double local_seconds = 0;
  MatchCollector matches;
  for (unsigned t = 0; t < threads; ++t) {
    local_seconds += joiners[t]->local_partition_seconds / threads;
    result.radix.build_splits += joiners[t]->build_splits;
    result.sharing.peer_partitions += peer_partitions[t];
    matches.merge(std::move(collectors[t]));
  }
  result.matches = matches.count;
  result.checksum = matches.checksum;
  result.pairs = std::move(matches.pairs);
  clock.stop();
  // The local pass runs inside the per-partition loop; report it as its own phase.
  clock.add("build_probe", -local_seconds);
  clock.add("local_partition", local_seconds);
}

}  // namespace hpcdb
