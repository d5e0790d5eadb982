#include "hpcdb/join/sortmerge/sort_merge_join.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/kernels/merge_join_scan.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/join/sortmerge/key_ranges.hpp"
#include "hpcdb/join/sortmerge/run_merger.hpp"
#include "hpcdb/join/sortmerge/sort_formats.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/one_sided_writer.hpp"

namespace hpcdb {

namespace {

// Runs are staged in whole cache lines (partitioning writes them through
// software write-combining): the run length rounded up to 8 tuples.
std::size_t staged_run_length(std::size_t run_length) { return (run_length + 7) / 8 * 8; }

std::size_t staging_bytes(std::uint64_t local_tuples, int ranks, unsigned threads, unsigned subranges, std::size_t block,
                          unsigned tuple_bytes) {
  // Every (thread, relation, sub-range) may leave one partly filled block
  // and one unused block (installed when the previous one filled up).
  const std::uint64_t ranges = static_cast<std::uint64_t>(ranks) * subranges;
  return (local_tuples + 4ull * threads * ranges * block) * tuple_bytes;
}

// The keys each range can hold, within [min_key, max_key]: what its runs
// need to be sorted through narrow keys.
std::vector<KeyField> key_fields(const KeyRanges& ranges, std::uint64_t min_key, std::uint64_t max_key) {
  const unsigned count = ranges.count();
  std::vector<std::uint64_t> lowest(count);
  for (unsigned c = 0; c < count; ++c) lowest[c] = std::max(ranges.lowest_key(c), min_key);
  std::vector<KeyField> fields(count);
  for (unsigned c = 0; c < count; ++c) {
    // Range c ends just before the next range's lowest key, if it has one.
    const bool next_starts = c + 1 < count && ranges.range_of(lowest[c + 1]) > c && lowest[c + 1] > lowest[c];
    const std::uint64_t highest = next_starts ? std::min(lowest[c + 1] - 1, max_key) : max_key;
    fields[c] = {lowest[c], highest >= lowest[c] ? bit_width_of(highest - lowest[c]) : 0};
  }
  return fields;
}

}  // namespace

struct SortMergeJoin::KeyBounds {
  std::uint64_t min_key = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_key = 0;
  std::uint64_t key_or = 0;
  std::uint64_t rid_or = 0;

  unsigned key_offset_bits() const { return max_key < min_key ? 0 : bit_width_of(max_key - min_key); }
  unsigned rid_bits() const { return bit_width_of(rid_or); }
  bool compressible(Compression compression) const {
    return compression == Compression::automatic && rid_bits() < 64 && key_offset_bits() + rid_bits() <= 64;
  }
};

namespace {

// Works on a local copy: the workers' bounds share cache lines, and with
// the loads of tuples it could not rule out as aliases, the loop kept them
// in memory (1 rank x 2 threads, 32M x 32M: the partition phase took
// 0.48-0.53 s instead of 0.22-0.26 s in about half the runs).
template <class Bounds>
void widen(Bounds& bounds, std::span<const Tuple> tuples) {
  Bounds b = bounds;
  for (const Tuple& tuple : tuples) {
    b.min_key = std::min(b.min_key, tuple.key);
    b.max_key = std::max(b.max_key, tuple.key);
    b.key_or |= tuple.key;
    b.rid_or |= tuple.rid;
  }
  bounds = b;
}

// The bounds over every rank, from each of this rank's workers' bounds.
template <class Bounds>
Bounds reduce_bounds(const std::vector<Bounds>& per_thread, MPI_Comm comm) {
  Bounds all;
  for (const Bounds& b : per_thread) {
    all.min_key = std::min(all.min_key, b.min_key);
    all.max_key = std::max(all.max_key, b.max_key);
    all.key_or |= b.key_or;
    all.rid_or |= b.rid_or;
  }
  all.min_key = allreduce(all.min_key, MPI_MIN, comm);
  all.max_key = allreduce(all.max_key, MPI_MAX, comm);
  std::uint64_t ors[2] = {all.key_or, all.rid_or};
  MPI_Allreduce(MPI_IN_PLACE, ors, 2, MPI_UINT64_T, MPI_BOR, comm);
  all.key_or = ors[0];
  all.rid_or = ors[1];
  return all;
}

// Over every rank's fragments, each rank scanning its own.
template <class Bounds>
Bounds key_bounds(const Relation& inner, const Relation& outer, unsigned threads, MPI_Comm comm) {
  std::vector<Bounds> per_thread(threads);
  run_on_threads(threads, [&](unsigned t) {
    for (const Relation* relation : {&inner, &outer}) {
      const std::size_t n = relation->tuples.size();
      const std::size_t first = split_point(n, threads, t), last = split_point(n, threads, t + 1);
      widen(per_thread[t], std::span<const Tuple>(relation->tuples.data() + first, last - first));
    }
  });
  return reduce_bounds(per_thread, comm);
}

// Over every rank's fragments, in chunks (shared over the node when node-wide).
template <class Bounds>
Bounds key_bounds(ChunkTasks& tasks, unsigned threads, MPI_Comm comm) {
  std::vector<Bounds> per_thread(threads);
  tasks.start();
  run_on_threads(threads, [&](unsigned t) {
    ChunkTask task;
    while (tasks.next(task)) widen(per_thread[t], task.tuples);
  });
  return reduce_bounds(per_thread, comm);
}

// One thread's runs of one relation, cut by destination range.
struct RunChains {
  std::vector<std::vector<std::uint32_t>> blocks;  // per range: staging block indices, in order
  std::vector<std::uint32_t> fill;                 // per range: tuples in the last block
  std::uint64_t count(std::size_t range, std::size_t run_length) const {
    const auto& b = blocks[range];
    return b.empty() ? 0 : (b.size() - 1) * run_length + fill[range];
  }
};

bool shares_node_work(const SortMergeJoinConfig& config, int ranks_per_node) {
  return config.share_node_work && ranks_per_node > 1;
}

}  // namespace

unsigned sort_merge_subranges(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                              const SortMergeJoinConfig& config, int ranks_per_node) {
  if (config.subranges != 0) return config.subranges;
  const double senders = static_cast<double>(ranks) * config.threads;
  const double share = static_cast<double>(std::min(inner_tuples, outer_tuples)) / senders / ranks;  // per sender and rank
  const double runs_per_share = shares_node_work(config, ranks_per_node) ? 2.0 : 1.0;
  const double wanted = share * runs_per_share / static_cast<double>(config.run_length);
  unsigned subranges = 1;
  while (subranges < 1024 && subranges * 1.41 < wanted) subranges *= 2;  // the nearest power of two
  return subranges;
}

std::size_t sort_merge_staging_block(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                     const SortMergeJoinConfig& config, int ranks_per_node) {
  const unsigned subranges = sort_merge_subranges(inner_tuples, outer_tuples, ranks, config, ranks_per_node);
  const double ranges = static_cast<double>(ranks) * subranges;
  const double share = static_cast<double>(std::max(inner_tuples, outer_tuples)) / ranks / config.threads / ranges;
  const auto wanted = static_cast<std::size_t>(std::min(2 * share, 1e12));
  constexpr std::size_t kSmallest = 64;  // 8 cache lines
  return std::min(staged_run_length(config.run_length), std::max(kSmallest, staged_run_length(wanted)));
}

std::uint64_t sort_merge_join_memory_per_rank(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                              const SortMergeJoinConfig& config, int ranks_per_node) {
  const std::uint64_t local = (inner_tuples + outer_tuples) / static_cast<std::uint64_t>(ranks);
  const unsigned subranges = sort_merge_subranges(inner_tuples, outer_tuples, ranks, config, ranks_per_node);
  const std::size_t block = sort_merge_staging_block(inner_tuples, outer_tuples, ranks, config, ranks_per_node);
  const std::uint64_t helping = shares_node_work(config, ranks_per_node) ? local / 2 : 0;
  return 2 * ReceiveWindows::capacity_for(inner_tuples, outer_tuples, ranks, 16) +
         staging_bytes(local + helping, ranks, config.threads, subranges, block, 16);
}

SortMergeJoin::SortMergeJoin(const Cluster& cluster, const SortMergeJoinConfig& config, const Relation& inner,
                             const Relation& outer)
    : cluster_(cluster), config_(config) {
  if (config.threads == 0) throw UsageError("--threads must be at least 1");
  if (config.run_length < 16 || config.run_length > (1u << 28)) {
    throw UsageError("--run-length must be between 16 and 2^28 tuples");
  }
  if (config.merge_fan_in < 2 || config.merge_fan_in > 1024) throw UsageError("--merge-fan-in must be between 2 and 1024");
  if (config.subranges > 4096) throw UsageError("--subranges must be at most 4096");
  if (config.input_chunks > 4096) throw UsageError("--input-chunks must be at most 4096");
  subranges_ = sort_merge_subranges(inner.global_size, outer.global_size, cluster.size(), config, cluster.node_size());
  block_ = sort_merge_staging_block(inner.global_size, outer.global_size, cluster.size(), config, cluster.node_size());
  const KeyBounds bounds = key_bounds<KeyBounds>(inner, outer, config.threads, cluster.world());
  const unsigned tuple_bytes = bounds.compressible(config.compression) ? 8 : 16;
  const std::size_t window = ReceiveWindows::capacity_for(inner.global_size, outer.global_size, cluster.size(), tuple_bytes);
  windows_ = std::make_unique<ReceiveWindows>(cluster, window, config.force_put || cluster.node_count() > 1);
  merge_buffer_ = MemoryRegion(window, Prefault::yes);
  chunks_ = input_chunks(config.input_chunks, std::max(inner.global_size, outer.global_size), cluster.size(), config.threads);
  node_tasks_ = std::make_unique<NodeTaskCounter>(cluster);
  const std::uint64_t local = inner.tuples.size() + outer.tuples.size();
  std::uint64_t help_room = 0;
  if (shares_node_work(config, cluster.node_size())) {
    // Workers take co-located ranks' chunks while fewer than half as many
    // tuples again as this rank's own have been taken; each may hold one
    // more chunk when they stop.
    std::uint64_t largest_fragment = std::max(inner.tuples.size(), outer.tuples.size());
    for (const Relation* relation : {&inner, &outer}) {
      for (std::span<const Tuple> fragment : relation->node_fragments) largest_fragment = std::max<std::uint64_t>(largest_fragment, fragment.size());
    }
    help_tuples_ = local / 2;
    help_room = help_tuples_ + config.threads * (largest_fragment / chunks_ + 1);
  }
  staging_ = MemoryRegion(
      staging_bytes(local + help_room, cluster.size(), config.threads, subranges_, block_, tuple_bytes),
      Prefault::yes);
}

JoinResult SortMergeJoin::run(const Relation& inner, const Relation& outer) {
  JoinResult result;
  result.inner_tuples = inner.global_size;
  result.outer_tuples = outer.global_size;
  PhaseClock clock;
  MPI_Barrier(cluster_.world());
  const double start = MPI_Wtime();
  clock.start("partition");
  ChunkTasks tasks(cluster_, *node_tasks_, chunks_, shares_node_work(config_, cluster_.node_size()), inner, outer);
  const KeyBounds bounds = key_bounds<KeyBounds>(tasks, config_.threads, cluster_.world());
  if (bounds.compressible(config_.compression)) {
    run_with(OffsetCompressedFormat{bounds.max_key < bounds.min_key ? 0 : bounds.min_key, bounds.rid_bits()}, inner,
             outer, tasks, bounds, result, clock);
  } else {
    run_with(WideTupleFormat{}, inner, outer, tasks, bounds, result, clock);
  }
  clock.stop();
  summarize_over_ranks(cluster_, clock, MPI_Wtime() - start, result);
  result.sort_merge.runs_sent = allreduce(result.sort_merge.runs_sent, MPI_SUM, cluster_.world());
  result.sort_merge.narrow_key_runs = allreduce(result.sort_merge.narrow_key_runs, MPI_SUM, cluster_.world());
  result.sort_merge.merge_levels = allreduce(result.sort_merge.merge_levels, MPI_MAX, cluster_.world());
  result.sharing.peer_chunks = allreduce(result.sharing.peer_chunks, MPI_SUM, cluster_.world());
  result.sharing.input_chunks = chunks_;
  result.sharing.node_wide = tasks.node_wide();
  result.sort_merge.key_bits = bounds.key_offset_bits();
  result.sort_merge.rid_bits = bounds.rid_bits();
  return result;
}

template <class Format>
void SortMergeJoin::run_with(Format format, const Relation& inner, const Relation& outer, ChunkTasks& chunks,
                             const KeyBounds& bounds, JoinResult& result, PhaseClock& clock) {
  using Stored = typename Format::Stored;
  const MPI_Comm world = cluster_.world();
  const int me = cluster_.rank();
  const auto ranks = static_cast<std::size_t>(cluster_.size());
  const unsigned threads = config_.threads;
  const std::size_t run_length = block_;  // each staging block becomes one run
  result.sort_merge.compressed = sizeof(Stored) == 8;
  result.sort_merge.tuple_bytes = sizeof(Stored);
  result.sort_merge.simd = sizeof(Stored) == 8 && default_sort_path() == SortPath::avx2;

  // --- partition: one range per rank, in `subranges` sub-ranges (range c =
  // q * subranges + sub belongs to rank q), each cut into runs
  const std::size_t subranges = subranges_;
  const std::size_t combined = ranks * subranges;
  result.sort_merge.subranges = subranges_;
  result.sort_merge.run_length = run_length;
  const KeyRanges ranges =
      config_.splitters == Splitters::sampled
          ? KeyRanges::between_splitters(sample_splitters(cluster_, inner, outer, static_cast<unsigned>(combined)))
          : KeyRanges::equal_width(bounds.min_key, bounds.max_key, static_cast<unsigned>(combined));
  const std::size_t staging_items = staging_.bytes() / sizeof(Stored);
  auto* staging = static_cast<Stored*>(staging_.data());
  // chains[t][relation]: the runs worker t formed, from whichever chunks it took
  std::vector<std::array<RunChains, 2>> chains(threads);
  const std::size_t total_blocks = staging_items / run_length;
  std::atomic<std::size_t> next_block{0};  // staging blocks are handed out one by one
  std::atomic<std::uint64_t> helped{0};    // tuples of co-located ranks' chunks taken here
  std::atomic<std::uint64_t> peer_chunks{0};
  const int own = cluster_.node_rank();
  chunks.start();
  run_on_threads(threads, [&](unsigned t) {
    WriteCombiner<Stored> inner_combiner(combined);
    WriteCombiner<Stored> outer_combiner(combined);
    WriteCombiner<Stored>* combiners[2] = {&inner_combiner, &outer_combiner};
    auto next_run = [&](int relation, std::size_t c) {
      const std::size_t block = next_block.fetch_add(1, std::memory_order_relaxed);
      if (block >= total_blocks) throw Error("sort-merge join: run staging memory exhausted");
      chains[t][static_cast<std::size_t>(relation)].blocks[c].push_back(static_cast<std::uint32_t>(block));
      Stored* begin = staging + block * run_length;
      combiners[relation]->set_run(c, begin, begin + run_length);
    };
    for (int relation = 0; relation < 2; ++relation) {
      RunChains& chain = chains[t][static_cast<std::size_t>(relation)];
      chain.blocks.assign(combined, {});
      chain.fill.assign(combined, 0);
      for (std::size_t c = 0; c < combined; ++c) next_run(relation, c);
    }
    const Format encoder = format;  // a copy the stores below cannot alias
    ChunkTask task;
    // Own chunks always fit the staging memory; others' only within its room for them.
    while (chunks.next(task, helped.load(std::memory_order_relaxed) < help_tuples_)) {
      if (task.node_rank != own) {
        helped.fetch_add(task.tuples.size(), std::memory_order_relaxed);
        peer_chunks.fetch_add(1, std::memory_order_relaxed);
      }
      WriteCombiner<Stored>& combiner = *combiners[task.relation];
      auto on_full = [&](std::size_t c) { next_run(task.relation, c); };
      ranges.visit([&](auto range_of) {
        const Tuple* tuples = task.tuples.data();
        const std::size_t n = task.tuples.size();
        std::size_t i = 0;
        for (; i + 2 <= n; i += 2) {
          const Tuple a = tuples[i], b = tuples[i + 1];
          combiner.push_pair(range_of(a.key), encoder.encode(a), range_of(b.key), encoder.encode(b), on_full);
        }
        if (i < n) {
          const unsigned c = range_of(tuples[i].key);
          if (combiner.push(c, encoder.encode(tuples[i]))) on_full(c);
        }
      });
    }
    for (int relation = 0; relation < 2; ++relation) {
      RunChains& chain = chains[t][static_cast<std::size_t>(relation)];
      for (std::size_t c = 0; c < combined; ++c) {
        const Stored* begin = staging + static_cast<std::size_t>(chain.blocks[c].back()) * run_length;
        auto filled = static_cast<std::uint32_t>(combiners[relation]->drain(c) - begin);
        if (filled == 0) {  // the last block stayed empty
          chain.blocks[c].pop_back();
          filled = chain.blocks[c].empty() ? 0 : static_cast<std::uint32_t>(run_length);
        }
        chain.fill[c] = filled;
      }
    }
    WriteCombiner<Stored>::publish();
  });
  result.sharing.peer_chunks = peer_chunks.load();

  // --- window allocation: sizes, offsets, per-sender counts. A target's
  // region of one relation holds its sub-ranges in key order, each with the
  // senders' data in rank order, each sender's in thread order.
  clock.start("window_allocation");
  // counts[(c * 2 + relation) * threads + t]: tuples of (relation, thread t) in range c
  std::vector<std::uint64_t> counts(combined * 2 * threads);
  std::vector<std::uint64_t> mine(combined * 2, 0);            // [c][relation], over threads
  std::vector<std::uint64_t> per_destination(ranks * 2, 0);  // [q][relation]
  for (std::size_t c = 0; c < combined; ++c) {
    for (int relation = 0; relation < 2; ++relation) {
      const std::size_t cr = c * 2 + static_cast<std::size_t>(relation);
      for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t n = chains[t][static_cast<std::size_t>(relation)].count(c, run_length);
        counts[cr * threads + t] = n;
        mine[cr] += n;
      }
      per_destination[(c / subranges) * 2 + static_cast<std::size_t>(relation)] += mine[cr];
    }
  }
  std::uint64_t window_tuples[2] = {0, 0};
  MPI_Reduce_scatter_block(per_destination.data(), window_tuples, 2, MPI_UINT64_T, MPI_SUM, world);
  // Where my data of (range c, relation) starts in its target's region: the
  // earlier sub-ranges of all senders, then the lower ranks' data.
  std::vector<std::uint64_t> slot_base = exclusive_scan_sum(mine, world);
  {
    std::vector<std::uint64_t> totals = mine;
    allreduce_in_place(totals, MPI_SUM, world);
    for (std::size_t q = 0; q < ranks; ++q) {
      std::uint64_t before[2] = {0, 0};
      for (std::size_t sub = 0; sub < subranges; ++sub) {
        for (std::size_t relation = 0; relation < 2; ++relation) {
          const std::size_t cr = (q * subranges + sub) * 2 + relation;
          slot_base[cr] += before[relation];
          before[relation] += totals[cr];
        }
      }
    }
  }
  // incoming[((sender * subranges + sub) * 2 + relation) * threads + t]
  std::vector<std::uint64_t> incoming(ranks * subranges * 2 * threads);
  MPI_Alltoall(counts.data(), static_cast<int>(subranges * 2 * threads), MPI_UINT64_T, incoming.data(),
               static_cast<int>(subranges * 2 * threads), MPI_UINT64_T, world);
  // Every rank needs the outer-region offset of each target: from the targets' inner sizes.
  const std::vector<std::uint64_t> inner_sizes = allgather(window_tuples[0], world);
  auto outer_region = [&](std::size_t q) { return (inner_sizes[q] * sizeof(Stored) + 63) / 64 * 64; };
  const std::uint64_t my_window = outer_region(static_cast<std::size_t>(me)) + window_tuples[1] * sizeof(Stored);
  if (windows_->open(my_window)) merge_buffer_ = MemoryRegion(windows_->capacity(), Prefault::yes);
  OneSidedWriter* writer = windows_->writer();

  // --- sort runs and ship each as soon as it is sorted
  clock.start("sort");
  struct RunTask {
    unsigned thread;
    int relation;
    std::size_t range;  // c: target rank * subranges + sub-range
    std::size_t index;  // run number within (thread, relation, range)
  };
  std::vector<RunTask> tasks;
  for (std::size_t k = 0; k < ranks; ++k) {
    const std::size_t q = config_.send_order == SendOrder::shifted ? (static_cast<std::size_t>(me) + 1 + k) % ranks : k;
    for (int relation = 0; relation < 2; ++relation) {
      for (unsigned t = 0; t < threads; ++t) {
        for (std::size_t c = q * subranges; c < (q + 1) * subranges; ++c) {
          const std::size_t runs = chains[t][static_cast<std::size_t>(relation)].blocks[c].size();
          for (std::size_t b = 0; b < runs; ++b) tasks.push_back({t, relation, c, b});
        }
      }
    }
  }
  const std::vector<KeyField> range_keys = key_fields(ranges, bounds.min_key, bounds.max_key);
  TaskCounter task_counter(tasks.size());
  std::vector<std::vector<MPI_Request>> requests(threads);
  std::vector<std::uint64_t> narrow_key_runs(threads, 0);
  run_on_threads(threads, [&](unsigned worker) {
    RunSortSpace<Stored> space(run_length);
    std::size_t task_index = 0;
    while (task_counter.next(task_index)) {
      const RunTask& task = tasks[task_index];
      const RunChains& chain = chains[task.thread][static_cast<std::size_t>(task.relation)];
      const std::vector<std::uint32_t>& blocks = chain.blocks[task.range];
      const std::size_t n = task.index + 1 == blocks.size() ? chain.fill[task.range] : run_length;
      Stored* run = staging + static_cast<std::size_t>(blocks[task.index]) * run_length;
      // Slot of this run in the target's region: after my lower threads' runs of this range.
      const std::size_t cr = task.range * 2 + static_cast<std::size_t>(task.relation);
      std::uint64_t slot = slot_base[cr] + task.index * run_length;
      for (unsigned u = 0; u < task.thread; ++u) slot += counts[cr * threads + u];
      const std::size_t target = task.range / subranges;
      const std::uint64_t region = task.relation == 0 ? 0 : outer_region(target);
      const int node_rank = cluster_.node_rank_of(static_cast<int>(target));
      if (node_rank >= 0 && !config_.force_put) {
        Stored* destination = reinterpret_cast<Stored*>(windows_->segment(node_rank) + region) + slot;
        narrow_key_runs[worker] += format.sort(run, n, destination, space, range_keys[task.range]);
      } else {
        narrow_key_runs[worker] += format.sort(run, n, run, space, range_keys[task.range]);
        requests[worker].push_back(writer->put(run, n * sizeof(Stored), static_cast<int>(target), region + slot * sizeof(Stored)));
      }
    }
    for (MPI_Request& request : requests[worker]) writer->wait(request);
  });
  result.sort_merge.runs_sent = tasks.size();
  for (std::uint64_t runs : narrow_key_runs) result.sort_merge.narrow_key_runs += runs;
  for (std::size_t q = 0; q < ranks; ++q) {
    if (static_cast<int>(q) == me) continue;
    result.bytes_sent += (per_destination[q * 2] + per_destination[q * 2 + 1]) * sizeof(Stored);
  }
  if (writer) {
    result.puts = writer->puts();
    result.bytes_put = writer->bytes();
  }

  clock.start("sort_wait");
  windows_->close();

  // --- merge the received runs of each relation
  clock.start("merge");
  std::byte* segment = windows_->own();
  Stored* merged[2] = {nullptr, nullptr};
  unsigned deepest = 0;
  for (int relation = 0; relation < 2; ++relation) {
    Stored* region = reinterpret_cast<Stored*>(segment + (relation == 0 ? 0 : outer_region(static_cast<std::size_t>(me))));
    Stored* spare = reinterpret_cast<Stored*>(static_cast<std::byte*>(merge_buffer_.data()) +
                                              (relation == 0 ? 0 : outer_region(static_cast<std::size_t>(me))));
    std::vector<std::vector<SortedRun<Stored>>> segments(subranges);  // the runs of each sub-range
    std::uint64_t offset = 0;
    for (std::size_t sub = 0; sub < subranges; ++sub) {
      for (std::size_t sender = 0; sender < ranks; ++sender) {
        for (unsigned t = 0; t < threads; ++t) {
          const std::uint64_t n =
              incoming[((sender * subranges + sub) * 2 + static_cast<std::size_t>(relation)) * threads + t];
          for (std::uint64_t b = 0; b < n; b += run_length) {
            segments[sub].push_back({region + offset + b, std::min<std::uint64_t>(run_length, n - b)});
          }
          offset += n;
        }
      }
    }
    auto unmerged = [&] {
      return std::any_of(segments.begin(), segments.end(), [](const auto& runs) { return runs.size() > 1; });
    };
    unsigned levels = 0;
    Stored* source = region;
    Stored* target = spare;
    while (unmerged()) {
      ++levels;
      segments = merge_level(format, segments, config_.merge_fan_in, source, target, threads);
      std::swap(source, target);
    }
    deepest = std::max(deepest, levels);
    merged[relation] = source;
  }
  result.sort_merge.merge_levels = deepest;

  // --- match: threads scan consecutive key ranges (never splitting a key)
  clock.start("match");
  const Stored* r = merged[0];
  const Stored* s = merged[1];
  const std::uint64_t nr = window_tuples[0], ns = window_tuples[1];
  auto key_of = [format](const Stored& v) { return format.key(v); };
  std::vector<std::uint64_t> r_cut(threads + 1, nr), s_cut(threads + 1, ns);
  r_cut[0] = s_cut[0] = 0;
  for (unsigned t = 1; t < threads; ++t) {
    std::uint64_t cut = std::max(r_cut[t - 1], nr * t / threads);
    while (cut > r_cut[t - 1] && cut < nr && key_of(r[cut]) == key_of(r[cut - 1])) ++cut;
    r_cut[t] = cut;
    s_cut[t] = cut == nr ? ns
                         : static_cast<std::uint64_t>(std::lower_bound(s, s + ns, r[cut], [&](const Stored& a, const Stored& b) {
                             return key_of(a) < key_of(b);
                           }) - s);
    s_cut[t] = std::max(s_cut[t], s_cut[t - 1]);
  }
  std::vector<MatchCollector> collectors(threads);
  run_on_threads(threads, [&](unsigned t) {
    collectors[t].keep_pairs = config_.keep_pairs;
    merge_join_scan(
        r + r_cut[t], r_cut[t + 1] - r_cut[t], s + s_cut[t], s_cut[t + 1] - s_cut[t], key_of,
        [format](const Stored& v) { return format.rid(v); }, collectors[t]);
  });
  MatchCollector matches;
  for (MatchCollector& c : collectors) matches.merge(std::move(c));  // thread order = key order
  result.matches = matches.count;
  result.checksum = matches.checksum;
  result.pairs = std::move(matches.pairs);
}

}  // namespace hpcdb
