// Planning steps of the joins that need no MPI: assignment, window layout,
// radix bit choice, sort-merge run staging.
#include <gtest/gtest.h>

#include "hpcdb/join/radix/partition_assignment.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/radix/window_layout.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"

namespace hpcdb {
namespace {

TEST(PartitionAssignment, RoundRobin) {
  const std::vector<std::uint64_t> r(6, 1), s(6, 1);
  EXPECT_EQ(assign_partitions(r, s, 4, Assignment::round_robin), (std::vector<int>{0, 1, 2, 3, 0, 1}));
}

TEST(PartitionAssignment, SkewAwareKeepsLargestApart) {
  const std::vector<std::uint64_t> r = {0, 0, 0, 0};
  const std::vector<std::uint64_t> s = {100, 90, 10, 5};
  const std::vector<int> owner = assign_partitions(r, s, 2, Assignment::skew_aware);
  EXPECT_NE(owner[0], owner[1]);
  EXPECT_EQ(owner[2], owner[1]);  // the small ones fill the lighter rank
  EXPECT_EQ(owner[3], owner[0]);  // ties go to the lower rank
}

TEST(WindowLayout, PartitionsAreContiguousPerOwner) {
  const std::vector<std::uint64_t> r = {3, 5, 2, 7};
  const std::vector<std::uint64_t> s = {1, 1, 4, 0};
  const std::vector<int> owner = {0, 1, 0, 1};
  const WindowLayout w = plan_windows(r, s, owner, 2, 8);
  EXPECT_EQ(w.inner_base, (std::vector<std::uint64_t>{0, 0, 3, 5}));
  EXPECT_EQ(w.outer_base, (std::vector<std::uint64_t>{0, 0, 1, 1}));
  EXPECT_EQ(w.inner_tuples, (std::vector<std::uint64_t>{5, 12}));
  EXPECT_EQ(w.outer_region_offset, (std::vector<std::uint64_t>{64, 128}));
  EXPECT_EQ(w.window_bytes, (std::vector<std::uint64_t>{64 + 5 * 8, 128 + 8}));
}

TEST(RadixPlan, EnoughPartitionsForEveryWorkerAndCacheSizedPartitions) {
  CpuInfo cpu;
  cpu.l2_bytes = 512 * 1024;
  const RadixBits small = choose_radix_bits(100, 4, 2, 8, cpu, 0, 0);
  EXPECT_GE(1u << small.network, 8u * 4);
  EXPECT_EQ(small.local, 0u);
  const RadixBits large = choose_radix_bits(1ULL << 30, 2, 1, 8, cpu, 0, 0);
  const std::uint64_t per_final = (1ULL << 30) >> (large.network + large.local);
  EXPECT_LE(per_final, cache_resident_build_tuples(8, cpu));
  const RadixBits requested = choose_radix_bits(1ULL << 30, 2, 1, 8, cpu, 9, 5);
  EXPECT_EQ(requested.network, 9u);
  EXPECT_EQ(requested.local, 5u);
}

TEST(SortMergeStaging, FullRunsForLargeInputsShorterBlocksForSmallOnes) {
  SortMergeJoinConfig config;  // runs of 16384, sub-ranges chosen automatically
  const std::uint64_t big = 32'000'000;
  EXPECT_EQ(sort_merge_staging_block(big, big, 2, config), 16384u);
  config.run_length = 1000;  // rounded up to whole cache lines
  EXPECT_EQ(sort_merge_staging_block(big, big, 2, config), 1000u);

  // Many sub-ranges and threads over little data: every thread keeps a block
  // open per sub-range and relation, so full-length blocks would need
  // gigabytes.
  config.run_length = 16384;
  config.threads = 3;
  config.subranges = 1024;
  EXPECT_EQ(sort_merge_staging_block(123457, 1000, 3, config), 64u);
  JoinFacts facts;
  facts.ranks = 3;
  facts.inner_tuples = facts.largest_inner_fragment = 123457;
  facts.outer_tuples = facts.largest_outer_fragment = 1000;
  EXPECT_LT(plan_sort_merge_join(facts, config).memory().total(), 200ull << 20);
  // A sender thread's share of a sub-range between 32 and 8192 tuples: twice
  // that, in whole cache lines.
  config.threads = 1;
  config.subranges = 16;
  EXPECT_EQ(sort_merge_staging_block(100'000, 50'000, 2, config), 3128u);  // 2 * 100000 / 2 / 32 = 3125 -> 3128
}

TEST(SortMergeSubranges, HalfARunPerSenderWhenTheRanksOfANodeShareWork) {
  SortMergeJoinConfig config;  // runs of 16384
  const std::uint64_t big = 32'000'000;
  EXPECT_EQ(sort_merge_subranges(big, big, 2, config), 512u);     // 16M / 2 senders / 512 = 15625 per sender
  EXPECT_EQ(sort_merge_subranges(big, big, 2, config, 2), 1024u);  // 7812: a helper's extra still fits its block
  EXPECT_EQ(sort_merge_staging_block(big, big, 2, config, 2), 15632u);  // twice a share, whole cache lines
  config.share_node_work = false;
  EXPECT_EQ(sort_merge_subranges(big, big, 2, config, 2), 512u);
  EXPECT_EQ(sort_merge_subranges(big, big, 2, config, 1), 512u);
}

}  // namespace
}  // namespace hpcdb
