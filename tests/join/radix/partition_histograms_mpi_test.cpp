// The radix join's histogram phase run alone, on plain threads: every
// rank's chunks counted into the node's chunk tables give, summed over the
// job, each network partition's size (keys' low bits), also when co-located
// ranks count each other's chunks and when the first local pass's digits
// are counted in the same read.
#include "hpcdb/join/radix/partition_histograms.hpp"

#include <gtest/gtest.h>

#include <random>

#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/node_task_counter.hpp"
#include "join/join_test_support.hpp"

namespace hpcdb {
namespace {

using testing::GlobalInput;

GlobalInput random_input(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GlobalInput input;
  for (std::size_t i = 0; i < n; ++i) input.inner.push_back({rng() % (4 * n), i});
  for (std::size_t i = 0; i < 2 * n; ++i) input.outer.push_back({rng() % (4 * n), i});
  return input;
}

void expect_partition_sizes(unsigned network_bits, unsigned local_bits, unsigned threads) {
  const Cluster& c = testing::cluster();
  const GlobalInput input = random_input(20000, 41 + network_bits);
  const Relation inner = testing::slice_for_this_rank(input.inner);
  const Relation outer = testing::slice_for_this_rank(input.outer);
  RadixJoinConfig config;
  config.network_bits = network_bits;
  config.local_bits = local_bits;
  config.threads = threads;
  const RadixPlan plan = plan_radix_join(agreed_join_facts(c, inner, outer), config);
  NodeTaskCounter counter(c);
  const InputChunks chunks(c, plan.input_chunks, plan.partitions);
  ChunkTasks tasks(c, counter, plan.input_chunks, plan.share_node_work, inner, outer);
  PlainWorkers workers;
  const PartitionHistograms h = count_partitions(c, workers, plan, tasks, chunks);

  std::vector<std::uint64_t> inner_expected(plan.partitions), outer_expected(plan.partitions);
  for (const Tuple& t : input.inner) ++inner_expected[t.key & (plan.partitions - 1)];
  for (const Tuple& t : input.outer) ++outer_expected[t.key & (plan.partitions - 1)];
  EXPECT_EQ(h.inner_counts(), inner_expected);
  EXPECT_EQ(h.outer_counts(), outer_expected);
  std::vector<std::uint64_t> summed = h.rank_counts;
  allreduce_in_place(summed, MPI_SUM, c.world());
  EXPECT_EQ(summed, h.global_counts) << "the ranks' own counts do not add up to the job's";
  if (h.digit_bits == 0) return;
  const std::uint64_t digit_mask = (std::uint64_t{1} << h.digit_bits) - 1;
  for (std::size_t p = 0; p < plan.partitions; ++p) {
    std::vector<std::uint64_t> expected(digit_mask + 1);
    for (const Tuple& t : input.inner) {
      if ((t.key & (plan.partitions - 1)) == p) ++expected[(t.key >> network_bits) & digit_mask];
    }
    ASSERT_TRUE(std::equal(expected.begin(), expected.end(), h.inner_digits(p))) << "partition " << p;
  }
}

TEST(PartitionHistograms, CountEveryTupleInItsPartition) { expect_partition_sizes(5, 0, 1); }

TEST(PartitionHistograms, SeveralWorkersCountTheSame) { expect_partition_sizes(6, 0, 3); }

TEST(PartitionHistograms, FirstLocalDigitsCountedInTheSameRead) { expect_partition_sizes(4, 3, 2); }

}  // namespace
}  // namespace hpcdb
