#pragma once
// The sort-merge join's plan: every decision the ranks must share, made once
// from agreed facts (join_facts.hpp) and the options, and used everywhere
// after: by the operator, its memory estimate, the model and the report.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hpcdb/join/sortmerge/sort_merge_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/join/sorted_format_plan.hpp"

namespace hpcdb {

struct SortMergePlan {
  SortMergeJoinConfig config;
  SortedFormatPlan format;  // how tuples sort and travel
  unsigned subranges = 1;        // key sub-ranges per rank
  std::size_t run_length = 0;    // tuples per staging block, the longest run
  unsigned input_chunks = 1;     // per rank fragment and relation
  bool share_node_work = true;   // co-located ranks share the passes over the input
  std::uint64_t help_tuples = 0;  // co-located ranks' tuples a rank's workers may take on
  std::size_t window_capacity = 0;  // bytes per rank, with slack for skew (also the merge buffer's)
  WindowWrites writes = WindowWrites::stores_and_puts;
  std::size_t staging_bytes = 0;    // per rank: runs before they are sorted and sent, at most
  // What uniform data fills of the staging (blocks are handed out from the
  // start: a block per range, thread and relation, more where they fill up,
  // and the co-located ranks' share) or of the merge buffer (a rank's mean
  // share): pre-faulted; the rest of the region is touched only under skew.
  std::size_t staging_expected_bytes = 0;
  // One region serves both: the runs are shipped before the merge begins.
  std::size_t staging_and_merge_bytes() const { return std::max(staging_bytes, window_capacity); }

  MemoryEstimate memory() const;
};

// The plan for these facts; validates the options first (UsageError).
SortMergePlan plan_sort_merge_join(const JoinFacts& facts, const SortMergeJoinConfig& config);

// Key sub-ranges per rank: as configured, or enough that each sender
// thread's share of a sub-range is about one run (so that the merge of a
// sub-range has about one run per sender), a power of two between 1 and 1024.
// When the `ranks_per_node` ranks of a node share their work, about half a
// run: a worker that takes on a slower rank's chunks then still forms one
// run per sub-range (a second, short run would make every merge three-way).
unsigned sort_merge_subranges(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                              const SortMergeJoinConfig& config, int ranks_per_node = 1);

// Tuples per staging block, which is also the longest run: the run length
// (rounded up to whole cache lines), or less when a sender thread's expected
// share of a key range is under half a run. Every (thread, relation, range)
// keeps a block open while partitioning, so with many ranges and little data,
// blocks of the full run length would need far more staging memory than the
// data itself (3 ranks x 3 threads x 1024 sub-ranges: 9 GiB per rank for
// 123457 tuples).
std::size_t sort_merge_staging_block(std::uint64_t inner_tuples, std::uint64_t outer_tuples, int ranks,
                                     const SortMergeJoinConfig& config, int ranks_per_node = 1);

}  // namespace hpcdb
