// Work sharing between the ranks of a node: the node-wide task counter, node-
// shared relation fragments, and both joins with and without sharing.
#include <gtest/gtest.h>

#include <numeric>

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/data/node_shared_relation.hpp"
#include "hpcdb/data/workload_generator.hpp"
#include "hpcdb/join/radix/radix_join.hpp"
#include "hpcdb/join/sortmerge/sort_merge_join.hpp"
#include "hpcdb/net/node_task_counter.hpp"
#include "join/join_test_support.hpp"

namespace hpcdb::testing {
namespace {

// Every task index a rank of the node took, gathered over the node.
std::vector<std::uint64_t> gather_over_node(const std::vector<std::uint64_t>& mine) {
  const Cluster& c = cluster();
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(c.node_size()));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, c.node());
  std::vector<int> offsets(counts.size(), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_UINT64_T, all.data(), counts.data(), offsets.data(), MPI_UINT64_T, c.node());
  std::sort(all.begin(), all.end());
  return all;
}

// Task ids list * 1'000'000 + index, gathered over the node, sorted.
TEST(NodeTaskCounter, HandsOutEveryTaskOnceOverTheNodeInEveryRound) {
  const Cluster& c = cluster();
  NodeTaskCounter counter(c);
  for (std::size_t per_rank : {std::size_t{500}, std::size_t{0}, std::size_t{3}}) {
    std::vector<std::size_t> counts;
    std::vector<std::uint64_t> expected;
    for (int r = 0; r < c.node_size(); ++r) {
      // Lists of different lengths, one of them empty when there are several.
      const std::size_t count = r == 1 ? 0 : per_rank + static_cast<std::size_t>(r);
      counts.push_back(count);
      for (std::size_t i = 0; i < count; ++i) expected.push_back(static_cast<std::uint64_t>(r) * 1000000 + i);
    }
    counter.start(counts);
    std::vector<std::vector<std::uint64_t>> taken(2);
    run_on_threads(2, [&](unsigned t) {
      NodeTaskCounter::Task task;
      while (counter.next(task)) taken[t].push_back(static_cast<std::uint64_t>(task.list) * 1000000 + task.index);
    });
    taken[0].insert(taken[0].end(), taken[1].begin(), taken[1].end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(gather_over_node(taken[0]), expected) << per_rank << " tasks per rank";
  }
}

TEST(NodeTaskCounter, ASlowRankDoesNotHoldUpTheOthers) {
  const Cluster& c = cluster();
  if (c.node_size() < 2) GTEST_SKIP() << "needs two ranks on one node";
  NodeTaskCounter counter(c);
  counter.start(std::vector<std::size_t>(static_cast<std::size_t>(c.node_size()), 100));
  // Node rank 0 arrives only once the others are done: they can only be done
  // once every list is exhausted, its own too (next() returns false only
  // then), so they must have taken its tasks without it. A barrier of the
  // others with node rank 0 waiting in it orders this, however slow any rank.
  NodeTaskCounter::Task task;
  std::uint64_t mine = 0;
  if (c.node_rank() != 0) {
    while (counter.next(task)) ++mine;
  }
  MPI_Barrier(c.node());
  if (c.node_rank() == 0) {
    while (counter.next(task)) ++mine;
  }
  std::uint64_t total = mine;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UINT64_T, MPI_SUM, c.node());
  EXPECT_EQ(total, 100u * static_cast<std::uint64_t>(c.node_size()));
  if (c.node_rank() == 0) {
    EXPECT_EQ(mine, 0u);
  }
  MPI_Barrier(c.node());
}

TEST(NodeTaskCounter, ARankTakesItsOwnListFirstThenTheNextRanks) {
  const Cluster& c = cluster();
  const int n = c.node_size();
  NodeTaskCounter counter(c);
  // One rank at a time takes every task of the node while the others wait.
  for (int taker = 0; taker < n; ++taker) {
    counter.start(std::vector<std::size_t>(static_cast<std::size_t>(n), 3));
    if (c.node_rank() == taker) {
      std::vector<std::pair<int, std::size_t>> order;
      NodeTaskCounter::Task task;
      while (counter.next(task)) order.emplace_back(task.list, task.index);
      std::vector<std::pair<int, std::size_t>> expected;
      for (int k = 0; k < n; ++k) {
        for (std::size_t i = 0; i < 3; ++i) expected.emplace_back((taker + k) % n, i);
      }
      EXPECT_EQ(order, expected);
    }
    MPI_Barrier(c.node());
  }
}

TEST(NodeSharedRelation, EveryRankReadsItsNodePeersFragments) {
  const Cluster& c = cluster();
  std::vector<Tuple> global;
  for (std::uint64_t i = 0; i < 1001; ++i) global.push_back({i * 3, i});
  const Relation shared = slice_for_this_rank(global);
  ASSERT_EQ(shared.node_fragments.size(), static_cast<std::size_t>(c.node_size()));
  EXPECT_EQ(shared.global_size, global.size());
  const auto ranks = static_cast<std::size_t>(c.size());
  for (int world_rank = 0; world_rank < c.size(); ++world_rank) {
    const int node_rank = c.node_rank_of(world_rank);
    if (node_rank < 0) continue;
    const std::span<const Tuple> fragment = shared.node_fragments[static_cast<std::size_t>(node_rank)];
    const std::size_t first = split_point(global.size(), ranks, static_cast<std::size_t>(world_rank));
    const std::size_t last = split_point(global.size(), ranks, static_cast<std::size_t>(world_rank) + 1);
    ASSERT_EQ(fragment.size(), last - first) << "rank " << world_rank;
    for (std::size_t i = 0; i < fragment.size(); ++i) {
      ASSERT_EQ(fragment[i].key, global[first + i].key);
      ASSERT_EQ(fragment[i].rid, global[first + i].rid);
    }
  }
  EXPECT_EQ(shared.node_fragments[static_cast<std::size_t>(c.node_rank())].data(), shared.tuples.data());
}

GlobalInput zipf_input() {
  WorkloadSpec spec{30000, 90000, 1.05, 0.8, 5};
  GlobalInput in;
  in.inner.resize(spec.inner_tuples);
  in.outer.resize(spec.outer_tuples);
  generate_inner(spec, 0, spec.inner_tuples, in.inner.data());
  generate_outer(spec, 0, spec.outer_tuples, in.outer.data());
  return in;
}

enum class SharedAlgorithm { radix, sort_merge };

JoinResult run_join(SharedAlgorithm algorithm, bool share, unsigned threads, const Relation& inner, const Relation& outer) {
  if (algorithm == SharedAlgorithm::radix) {
    RadixJoinConfig config;
    config.share_node_work = share;
    config.threads = threads;
    config.input_chunks = 6;
    config.keep_pairs = true;
    return RadixJoin(cluster(), config, inner, outer).run(inner, outer);
  }
  SortMergeJoinConfig config;
  config.share_node_work = share;
  config.threads = threads;
  config.input_chunks = 6;
  config.run_length = 512;
  config.keep_pairs = true;
  return SortMergeJoin(cluster(), config, inner, outer).run(inner, outer);
}

void expect_matches(const JoinResult& result, const Expected& expected) {
  EXPECT_EQ(result.matches, expected.matches);
  EXPECT_EQ(result.checksum, expected.checksum);
  EXPECT_EQ(gather_pairs(result.pairs), expected.pairs);
}

class NodeSharingJoin : public ::testing::TestWithParam<SharedAlgorithm> {};

TEST_P(NodeSharingJoin, SharedFragmentsAreChunkedOverTheNode) {
  const GlobalInput input = zipf_input();
  const Expected expected = serial_join(input);
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  for (unsigned threads : {1u, 2u}) {
    const JoinResult result = run_join(GetParam(), true, threads, inner, outer);
    expect_matches(result, expected);
    EXPECT_EQ(result.sharing.input_chunks, 6u);
    EXPECT_EQ(result.sharing.node_wide, cluster().node_size() > 1);
    EXPECT_EQ(result.sharing.partitions_shared, GetParam() == SharedAlgorithm::radix && cluster().node_size() > 1);
  }
}

TEST_P(NodeSharingJoin, OffKeepsEveryRankOnItsOwnWork) {
  const GlobalInput input = zipf_input();
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  const JoinResult result = run_join(GetParam(), false, 2, inner, outer);
  expect_matches(result, serial_join(input));
  EXPECT_FALSE(result.sharing.node_wide);
  EXPECT_FALSE(result.sharing.partitions_shared);
  EXPECT_EQ(result.sharing.peer_chunks, 0u);
  EXPECT_EQ(result.sharing.peer_partitions, 0u);
}

TEST_P(NodeSharingJoin, PrivateFragmentsOnAnyRankKeepChunksRankLocal) {
  const GlobalInput input = zipf_input();
  const Expected expected = serial_join(input);
  // All private, then only node rank 0's inner fragment private: the node
  // must agree to keep chunks rank-local (peers cannot read that fragment).
  for (bool only_first : {false, true}) {
    const Relation shared_inner = slice_for_this_rank(input.inner);
    const Relation outer = only_first ? slice_for_this_rank(input.outer) : private_slice_for_this_rank(input.outer);
    const bool private_inner = !only_first || cluster().node_rank() == 0;
    const Relation private_inner_slice = private_slice_for_this_rank(input.inner);
    const Relation& inner = private_inner ? private_inner_slice : shared_inner;
    const JoinResult result = run_join(GetParam(), true, 1, inner, outer);
    expect_matches(result, expected);
    EXPECT_FALSE(result.sharing.node_wide);
    EXPECT_EQ(result.sharing.peer_chunks, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(BothJoins, NodeSharingJoin, ::testing::Values(SharedAlgorithm::radix, SharedAlgorithm::sort_merge),
                         [](const ::testing::TestParamInfo<SharedAlgorithm>& info) {
                           return info.param == SharedAlgorithm::radix ? "radix" : "sort_merge";
                         });

}  // namespace
}  // namespace hpcdb::testing
