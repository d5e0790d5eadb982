#pragma once
// The sort-merge join's partition phase: the key bounds of both relations
// over every rank (a pass over the input, timed with the join: equal-width
// ranges need them), one key range per rank, cut into sub-ranges (equal
// width or between sampled splitters), then one pass over the input chunks
// that cuts each sub-range into runs of up to the plan's run length in
// staging memory (software write-combining, tuples already in the plan's
// format). With node sharing a worker helps the other ranks of its node
// once its own chunks are done, within the staging room the plan gave it.
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/join/key_bounds.hpp"
#include "hpcdb/join/sortmerge/key_ranges.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// One thread's runs of one relation, cut by destination range.
struct RunChains {
  std::vector<std::vector<std::uint32_t>> blocks;  // per range: staging block indices, in order
  std::vector<std::uint32_t> fill;                 // per range: tuples in the last block
  std::uint64_t count(std::size_t range, std::size_t run_length) const {
    const auto& b = blocks[range];
    return b.empty() ? 0 : (b.size() - 1) * run_length + fill[range];
  }
};

struct FormedRuns {
  KeyBounds bounds;  // of both relations over every rank
  KeyRanges ranges;  // ranks x sub-ranges, in key order: range c belongs to rank c / sub-ranges
  std::vector<std::array<RunChains, 2>> chains;  // [thread][relation]
  std::uint64_t peer_chunks = 0;                 // co-located ranks' chunks partitioned here
};

// Collective. The bounds over every rank of the chunks `tasks` hands out
// (a node's chunks are shared when node-wide).
KeyBounds chunk_key_bounds(const Cluster& cluster, WorkerRunner& workers, ChunkTasks& tasks, unsigned threads);

// Collective. Cuts every chunk into runs per range in `staging`.
template <class Format>
FormedRuns form_runs(const Cluster& cluster, WorkerRunner& workers, const SortMergePlan& plan, Format format,
                     const Relation& inner, const Relation& outer, ChunkTasks& tasks, const MemoryRegion& staging) {
  using Stored = typename Format::Stored;
  const unsigned threads = plan.config.threads;
  const std::size_t run_length = plan.run_length;
  const std::size_t combined = static_cast<std::size_t>(cluster.size()) * plan.subranges;
  FormedRuns formed;
  formed.bounds = chunk_key_bounds(cluster, workers, tasks, threads);
  if (plan.format.compressed && (formed.bounds.min_key < plan.format.bounds.min_key || formed.bounds.max_key > plan.format.bounds.max_key ||
                          formed.bounds.rid_bits() > plan.format.bounds.rid_bits())) {
    throw Error("sort-merge join: the relations hold keys or rids outside those the join was planned for");
  }
  formed.ranges = plan.config.splitters == Splitters::sampled
                      ? KeyRanges::between_splitters(sample_splitters(cluster, inner, outer, static_cast<unsigned>(combined)))
                      : KeyRanges::equal_width(formed.bounds.min_key, formed.bounds.max_key, static_cast<unsigned>(combined));
  const KeyRanges& ranges = formed.ranges;

  auto* blocks = static_cast<Stored*>(staging.data());
  const std::size_t total_blocks = staging.bytes() / sizeof(Stored) / run_length;
  formed.chains.resize(threads);
  std::atomic<std::size_t> next_block{0};  // staging blocks are handed out one by one
  std::atomic<std::uint64_t> helped{0};    // tuples of co-located ranks' chunks taken here
  std::atomic<std::uint64_t> peer_chunks{0};
  const int own = cluster.node_rank();
  tasks.start();
  workers.run_workers(threads, [&](unsigned t) {
    WriteCombiner<Stored> inner_combiner(combined);
    WriteCombiner<Stored> outer_combiner(combined);
    WriteCombiner<Stored>* combiners[2] = {&inner_combiner, &outer_combiner};
    std::array<RunChains, 2>& chains = formed.chains[t];
    auto next_run = [&](int relation, std::size_t c) {
      const std::size_t block = next_block.fetch_add(1, std::memory_order_relaxed);
      if (block >= total_blocks) throw Error("sort-merge join: run staging memory exhausted");
      chains[static_cast<std::size_t>(relation)].blocks[c].push_back(static_cast<std::uint32_t>(block));
      Stored* begin = blocks + block * run_length;
      combiners[relation]->set_run(c, begin, begin + run_length);
    };
    for (int relation = 0; relation < 2; ++relation) {
      RunChains& chain = chains[static_cast<std::size_t>(relation)];
      chain.blocks.assign(combined, {});
      chain.fill.assign(combined, 0);
      for (std::size_t c = 0; c < combined; ++c) next_run(relation, c);
    }
    const Format encoder = format;  // a copy the stores below cannot alias
    ChunkTask task;
    // Own chunks always fit the staging memory; others' only within its room for them.
    while (tasks.next(task, helped.load(std::memory_order_relaxed) < plan.help_tuples)) {
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
      RunChains& chain = chains[static_cast<std::size_t>(relation)];
      for (std::size_t c = 0; c < combined; ++c) {
        const Stored* begin = blocks + static_cast<std::size_t>(chain.blocks[c].back()) * run_length;
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
  formed.peer_chunks = peer_chunks.load();
  return formed;
}

}  // namespace hpcdb
