// The joins' plans are one decision of the whole job: made from facts every
// rank agrees on (processor facts reduced over the ranks, key bounds over
// every fragment), so every rank plans the same even when the ranks' own
// probes or fragments differ.
#include <gtest/gtest.h>

#include <vector>

#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/net/collectives.hpp"
#include "join/join_test_support.hpp"

namespace hpcdb::testing {
namespace {

// Whether every rank holds the same value.
bool same_everywhere(std::uint64_t value) {
  const MPI_Comm world = cluster().world();
  return allreduce(value, MPI_MIN, world) == allreduce(value, MPI_MAX, world);
}

TEST(JoinFacts, ProcessorFactsAreTheSmallestOverTheRanks) {
  const int rank = cluster().rank(), ranks = cluster().size();
  CpuInfo mine;
  mine.l1d_bytes = 32768 + 1024 * static_cast<std::size_t>(rank);
  mine.l2_bytes = (std::size_t{1} << 20) >> (rank % 3);  // rank 2 probes the smallest L2
  mine.l3_bytes = (std::size_t{32} << 20) - static_cast<std::size_t>(rank);
  mine.cores = 8 + static_cast<unsigned>(rank);
  mine.avx2 = rank != ranks - 1;
  const CpuInfo agreed = agree_on_cpu(mine, cluster().world());
  EXPECT_EQ(agreed.l1d_bytes, 32768u);
  EXPECT_EQ(agreed.l2_bytes, (std::size_t{1} << 20) >> std::min(ranks - 1, 2));
  EXPECT_EQ(agreed.l3_bytes, (std::size_t{32} << 20) - static_cast<std::size_t>(ranks - 1));
  EXPECT_EQ(agreed.cores, 8u);
  EXPECT_FALSE(agreed.avx2);  // the last rank has none
  mine.avx2 = true;
  EXPECT_TRUE(agree_on_cpu(mine, cluster().world()).avx2);
}

TEST(JoinPlan, RanksWithDifferentCachesPlanTheSameRadixBits) {
  // Each rank probes a different L2: planned from its own probe, the ranks
  // would disagree on the radix bits (and partition into different windows).
  const int rank = cluster().rank();
  JoinFacts facts = estimated_join_facts(cluster(), 64u << 20, 64u << 20);
  CpuInfo mine = facts.cpu;
  mine.l2_bytes = (std::size_t{256} << 10) << (rank % 4);
  const RadixJoinConfig config;
  const RadixPlan own_probe = plan_radix_join([&] {
    JoinFacts f = facts;
    f.cpu = mine;
    return f;
  }(), config);
  facts.cpu = agree_on_cpu(mine, cluster().world());
  const RadixPlan agreed = plan_radix_join(facts, config);
  EXPECT_TRUE(same_everywhere(agreed.bits.network * 100 + agreed.bits.local));
  EXPECT_TRUE(same_everywhere(agreed.build_budget));
  if (cluster().size() > 1) {
    EXPECT_FALSE(same_everywhere(own_probe.bits.network * 100 + own_probe.bits.local + own_probe.build_budget));
  }
}

TEST(JoinPlan, EveryAlgorithmPlansTheSameOnEveryRankFromUnevenFragments) {
  // Uneven fragments whose bounds differ per rank: rank r holds keys up to r's range only.
  GlobalInput input;
  for (std::uint64_t i = 0; i < 3000; ++i) input.inner.push_back({i * 7, i});
  for (std::uint64_t i = 0; i < 5000; ++i) input.outer.push_back({(i * 13) % 21000, 100000 + i});
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  const JoinFacts facts = agreed_join_facts(cluster(), inner, outer);
  EXPECT_EQ(facts.bounds.min_key, 0u);
  std::uint64_t max_key = 0;
  for (const std::vector<Tuple>* relation : {&input.inner, &input.outer}) {
    for (const Tuple& t : *relation) max_key = std::max(max_key, t.key);
  }
  EXPECT_EQ(facts.bounds.max_key, max_key);
  EXPECT_EQ(facts.largest_inner_fragment, (3000u + static_cast<unsigned>(cluster().size()) - 1) / static_cast<unsigned>(cluster().size()));
  JoinConfigs configs;
  for (JoinAlgorithm algorithm : {JoinAlgorithm::radix, JoinAlgorithm::sort_merge, JoinAlgorithm::cyclo, JoinAlgorithm::broadcast}) {
    configs.algorithm = algorithm;
    const JoinPlan plan = plan_join(facts, configs);
    EXPECT_TRUE(same_everywhere(tuple_bytes_of(plan))) << to_string(algorithm);
    EXPECT_TRUE(same_everywhere(memory_of(plan).total())) << to_string(algorithm);
    EXPECT_EQ(tuple_bytes_of(plan), 8u) << to_string(algorithm);  // 15-bit keys and 17-bit rids fit 8 bytes
  }
  const SortMergePlan sort_merge = plan_sort_merge_join(facts, configs.sort_merge);
  EXPECT_TRUE(same_everywhere(sort_merge.subranges));
  EXPECT_TRUE(same_everywhere(sort_merge.run_length));
  EXPECT_TRUE(same_everywhere(sort_merge.input_chunks));
}

}  // namespace
}  // namespace hpcdb::testing
