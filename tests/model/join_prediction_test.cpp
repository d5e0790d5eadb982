// A join's shape as the model sees it, taken from the join's own plan, and
// the prediction dispatched on the algorithm (no MPI).
#include "hpcdb/model/join_prediction.hpp"

#include "hpcdb/core/error.hpp"

#include <gtest/gtest.h>

namespace hpcdb {
namespace {

JoinFacts facts_for(std::uint64_t inner, std::uint64_t outer, int ranks) {
  JoinFacts f;
  f.ranks = ranks;
  f.nodes = 1;
  f.ranks_per_node = ranks;
  f.inner_tuples = inner;
  f.outer_tuples = outer;
  f.largest_inner_fragment = (inner + static_cast<std::uint64_t>(ranks) - 1) / static_cast<std::uint64_t>(ranks);
  f.largest_outer_fragment = (outer + static_cast<std::uint64_t>(ranks) - 1) / static_cast<std::uint64_t>(ranks);
  f.bounds_known = true;
  f.bounds.min_key = 0;
  f.bounds.max_key = inner + outer - 1;
  f.bounds.key_or = (std::uint64_t{1} << 28) - 1;
  f.bounds.rid_or = (std::uint64_t{1} << 27) - 1;
  f.cpu.l2_bytes = 512 * 1024;
  return f;
}

Calibration calibration_rates() {
  Calibration c;
  c.scan = 500e6;
  c.partition = 150e6;
  c.build = 300e6;
  c.probe = 250e6;
  c.sort_run = 120e6;
  c.merge = 800e6;
  c.match = 600e6;
  c.lookup = 80e6;
  c.put_bandwidth = 1e9;
  c.window_setup = 1e-3;
  return c;
}

const ClusterShape kCluster{4, 2, 2, 1.25e9, true};

TEST(JoinShape, TakesTheClusterAsGivenAndTheTupleSizeFromThePlan) {
  JoinConfigs configs;
  configs.radix.compression = Compression::off;
  const JoinShape wide = join_shape(plan_join(facts_for(1u << 20, 1u << 20, 4), configs), kCluster);
  EXPECT_EQ(wide.tuple_bytes, 16);
  EXPECT_EQ(wide.cluster.ranks, 4);
  EXPECT_EQ(wide.cluster.threads, 2);
  EXPECT_EQ(wide.cluster.machines, 2);
  EXPECT_EQ(wide.cluster.bandwidth_bytes, 1.25e9);
  EXPECT_TRUE(wide.cluster.network_shares_cores);
  configs.radix.compression = Compression::automatic;
  EXPECT_EQ(join_shape(plan_join(facts_for(1u << 20, 1u << 20, 4), configs), kCluster).tuple_bytes, 8);
}

TEST(JoinShape, CountsTheRadixJoinsLocalPassAndItsStagedExchange) {
  JoinConfigs configs;
  const JoinPlan small = plan_join(facts_for(1u << 16, 1u << 16, 4), configs);
  ASSERT_EQ(std::get<RadixPlan>(small).bits.local, 0u);
  EXPECT_EQ(join_shape(small, kCluster).radix_passes, 1u);
  EXPECT_FALSE(join_shape(small, kCluster).radix_staged);
  configs.radix.local_bits = 4;
  configs.radix.scheduled = true;
  const JoinShape staged = join_shape(plan_join(facts_for(1u << 16, 1u << 16, 4), configs), kCluster);
  EXPECT_EQ(staged.radix_passes, 2u);
  EXPECT_TRUE(staged.radix_staged);
}

TEST(JoinShape, TakesEachJoinsOwnKnobsFromItsPlan) {
  JoinConfigs configs;
  configs.algorithm = JoinAlgorithm::sort_merge;
  configs.sort_merge.merge_fan_in = 4;
  configs.sort_merge.subranges = 3;
  const JoinShape sort_merge = join_shape(plan_join(facts_for(1u << 20, 1u << 20, 4), configs), kCluster);
  EXPECT_EQ(sort_merge.fan_in, 4);
  EXPECT_EQ(sort_merge.subranges, 3);

  configs.algorithm = JoinAlgorithm::cyclo;
  configs.cyclo.presort = false;
  EXPECT_FALSE(join_shape(plan_join(facts_for(1u << 20, 1u << 20, 4), configs), kCluster).presort);

  configs.algorithm = JoinAlgorithm::broadcast;
  configs.broadcast.chunk_bytes = 3 << 20;
  EXPECT_EQ(join_shape(plan_join(facts_for(1u << 20, 1u << 20, 4), configs), kCluster).chunk_bytes, 3 << 20);
}

TEST(PredictJoin, EachAlgorithmGetsItsOwnModel) {
  const Calibration c = calibration_rates();
  JoinShape shape;
  shape.cluster = kCluster;
  const double n = 64e6;
  EXPECT_EQ(predict_join(JoinAlgorithm::radix, c, n, n, shape).phases.front().name, "histogram");
  EXPECT_EQ(predict_join(JoinAlgorithm::sort_merge, c, n, n, shape).phases.front().name, "partition");
  const ModelPrediction cyclo = predict_join(JoinAlgorithm::cyclo, c, n, n, shape);
  const ModelPrediction broadcast = predict_join(JoinAlgorithm::broadcast, c, n, n, shape);
  EXPECT_EQ(cyclo.phases.size(), 3u);
  EXPECT_EQ(broadcast.phases.size(), 3u);
  EXPECT_NE(cyclo.seconds, broadcast.seconds);
}

// The model's setting: threads per machine from the cluster, the window set-up
// from the calibration, and a rank's sub-ranges shared by its threads.
TEST(PredictJoin, MatchesTheModelsWithTheClustersSetting) {
  const Calibration c = calibration_rates();
  JoinShape shape;
  shape.cluster = kCluster;
  shape.tuple_bytes = 8;
  shape.subranges = 4;
  ModelSetting s;
  s.inner_tuples = s.outer_tuples = 64e6;
  s.machines = 2;
  s.threads_per_machine = 4;  // 4 ranks x 2 threads on 2 machines
  s.bandwidth_bytes = 1.25e9;
  s.network_shares_cores = true;
  s.window_seconds = 1e-3;
  SortMergeRates sort_merge = c.sort_merge_rates(16);
  sort_merge.subranges = 2;
  EXPECT_DOUBLE_EQ(predict_join(JoinAlgorithm::sort_merge, c, 64e6, 64e6, shape).seconds,
                   predict_sort_merge_join(s, sort_merge).seconds);
  EXPECT_DOUBLE_EQ(predict_join(JoinAlgorithm::radix, c, 64e6, 64e6, shape).seconds,
                   predict_radix_join(s, c.radix_rates(1)).seconds);
}

TEST(PredictJoin, BroadcastChunksComeFromTheShape) {
  const Calibration c = calibration_rates();
  JoinShape shape;
  shape.cluster = kCluster;
  shape.chunk_bytes = 1 << 20;
  const double small = predict_join(JoinAlgorithm::broadcast, c, 64e6, 64e6, shape).seconds;
  shape.chunk_bytes = 64 << 20;
  EXPECT_NE(predict_join(JoinAlgorithm::broadcast, c, 64e6, 64e6, shape).seconds, small);
  shape.chunk_bytes = 0;
  EXPECT_THROW(predict_join(JoinAlgorithm::broadcast, c, 64e6, 64e6, shape), UsageError);
}

}  // namespace
}  // namespace hpcdb
