// The models against the worked numbers of the thesis (spec §10).
#include "hpcdb/model/join_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr double M = 1e6;

// Cray XC30, 1024 cores (128 nodes x 8), 40M + 40M tuples per core (Table 4.2).
ModelSetting cray_1024() {
  ModelSetting s;
  s.machines = 128;
  s.threads_per_machine = 8;
  s.inner_tuples = 40 * M * 1024;
  s.outer_tuples = 40 * M * 1024;
  s.bandwidth_bytes = 1560 * M * 8;  // P_net = 1560 M tuples/s per node, 8-byte tuples
  s.tuple_bytes = 8;
  return s;
}

TEST(RadixJoinModel, ReproducesTable42) {
  RadixRates r;
  r.scan = 225 * M;
  r.partition = 120 * M;
  r.build = 210 * M;  // the table's combined build-probe rate
  r.probe = 210 * M;
  r.passes = 2;
  const ModelPrediction p = predict_radix_join(cray_1024(), r);
  EXPECT_FALSE(p.network_bound);  // 1560/8 = 195 > (127/128) * 120
  EXPECT_NEAR(p.seconds_of("histogram"), 0.36, 0.005);
  EXPECT_NEAR(p.seconds_of("network_partition"), 0.67, 0.005);
  EXPECT_NEAR(p.seconds_of("local_partition"), 0.67, 0.005);
  EXPECT_NEAR(p.seconds_of("build_probe"), 0.38, 0.005);
  EXPECT_NEAR(p.seconds, 2.08, 0.015);  // the table adds its rounded rows: 0.36 + 0.67 + 0.67 + 0.38
}

TEST(RadixJoinModel, StagedExchangeShipsEachMachinesRemoteShareOverItsLink) {
  // The thesis's radix join: 16 nodes, 100M + 100M tuples each, 16-byte
  // tuples, 870 Mbit/s (M = 2^20): (15/16) (100M + 100M) 16 B / bw = 27.6 s.
  const double Mi = 1 << 20;
  ModelSetting s;
  s.machines = 16;
  s.inner_tuples = s.outer_tuples = 100 * Mi * 16;
  s.tuple_bytes = 16;
  s.bandwidth_bytes = 870 * Mi / 8;
  s.staged_exchange = true;
  RadixRates r;
  r.scan = r.partition = r.build = r.probe = 1000 * M;
  const ModelPrediction p = predict_radix_join(s, r);
  EXPECT_NEAR(p.seconds_of("network_exchange"), 27.6, 0.05);
  EXPECT_NEAR(p.seconds_of("network_partition"), 2 * 100 * Mi / (1000 * M), 1e-9);  // local writes only
  EXPECT_TRUE(p.network_bound);
  // Streaming has no exchange phase: the network pass ships as it goes.
  s.staged_exchange = false;
  EXPECT_EQ(predict_radix_join(s, r).seconds_of("network_exchange"), 0.0);
  // One machine: nothing leaves it.
  s.staged_exchange = true;
  s.machines = 1;
  EXPECT_EQ(predict_radix_join(s, r).seconds_of("network_exchange"), 0.0);
}

TEST(SortMergeJoinModel, ReproducesTable42ComponentsAndFlagsTheMergeRow) {
  SortMergeRates r;
  r.scan = 225 * M;  // histogram part of "Partitioning"
  r.partition = 120 * M;
  r.sort_run = 45 * M;
  r.merge = 270 * M;
  r.match = 370 * M;
  r.run_length = 16384;
  r.fan_in = 16;
  const ModelPrediction p = predict_sort_merge_join(cray_1024(), r);
  EXPECT_NEAR(p.seconds_of("partition"), 1.00, 0.03);  // 0.356 + 0.667
  EXPECT_NEAR(p.seconds_of("sort"), 1.78, 0.005);
  EXPECT_EQ(p.merge_levels_inner, 3u);  // log16(40M / 16384) = 2.8 -> 3, "d = 3"
  EXPECT_EQ(p.merge_levels_outer, 3u);
  // Eq. 3.18 gives 0.89 s; the thesis table lists 1.78 s (spec §10.5, §17.8).
  EXPECT_NEAR(p.seconds_of("merge"), 0.89, 0.005);
  EXPECT_NEAR(p.seconds_of("match"), 0.22, 0.005);
}

TEST(SortMergeJoinModel, SubrangesCountMergeLevelsPerSubrange) {
  SortMergeRates r;
  r.scan = r.partition = r.sort_run = r.merge = r.match = 100 * M;
  ModelSetting s;
  s.inner_tuples = s.outer_tuples = 32e6;
  s.machines = 1;
  s.threads_per_machine = 2;
  // One range per worker: 2 senders x ceil(8M / 16384) = 978 runs -> log16 -> 3 levels, run as
  // 4 + 4 + 2 rounds of two-way merges (978 -> 62 -> 4 -> 1).
  const ModelPrediction thesis = predict_sort_merge_join(s, r);
  EXPECT_EQ(thesis.merge_levels_inner, 3u);
  // 64 sub-ranges per worker: 2 senders x ceil(125 000 / 16384) = 16 runs -> 1 level of 4 rounds.
  r.subranges = 64;
  const ModelPrediction split = predict_sort_merge_join(s, r);
  EXPECT_EQ(split.merge_levels_inner, 1u);
  EXPECT_NEAR(split.seconds_of("merge") * 10 / 4, thesis.seconds_of("merge"), 1e-9);
  // 512 sub-ranges: 2 runs -> 1 level of a single round, a quarter of a full level.
  r.subranges = 512;
  const ModelPrediction two_runs = predict_sort_merge_join(s, r);
  EXPECT_EQ(two_runs.merge_levels_inner, 1u);
  EXPECT_NEAR(two_runs.seconds_of("merge") * 4, split.seconds_of("merge"), 1e-9);
  r.subranges = 0;
  EXPECT_THROW(predict_sort_merge_join(s, r), UsageError);
}

TEST(RadixJoinModel, OptimalCoresPerMachineOnQdrAndFdr) {
  RadixRates r{200 * M, 110 * M, 200 * M, 200 * M, 2};
  ModelSetting s;
  s.machines = 10;
  s.threads_per_machine = 8;
  s.inner_tuples = s.outer_tuples = 2048 * M;
  s.tuple_bytes = 8;  // the rates are for compressed tuples
  s.bandwidth_bytes = 3.6e9;
  EXPECT_EQ(std::lround(predict_radix_join(s, r).optimal_threads), 4);  // QDR
  EXPECT_TRUE(predict_radix_join(s, r).network_bound);
  s.bandwidth_bytes = 6.0e9;
  EXPECT_EQ(std::lround(predict_radix_join(s, r).optimal_threads), 7);  // FDR
}

TEST(RadixJoinModel, FdrWithEightThreadsIsComputeBoundUpToSixMachines) {
  RadixRates r{200 * M, 110 * M, 200 * M, 200 * M, 2};
  ModelSetting s;
  s.threads_per_machine = 8;
  s.inner_tuples = s.outer_tuples = 2048 * M;
  s.bandwidth_bytes = 6.0e9;
  for (double machines : {2.0, 3.0, 4.0, 5.0, 6.0}) {
    s.machines = machines;
    EXPECT_FALSE(predict_radix_join(s, r).network_bound) << machines;
  }
  for (double machines : {7.0, 8.0, 10.0}) {
    s.machines = machines;
    EXPECT_TRUE(predict_radix_join(s, r).network_bound) << machines;
  }
}

TEST(SortMergeJoinModel, OptimalCoresOnFdr) {
  SortMergeRates r;
  r.scan = 200 * M;
  r.partition = 110 * M;
  r.sort_run = 45 * M;
  r.merge = 270 * M;
  ModelSetting s;
  s.machines = 10;
  s.threads_per_machine = 8;
  s.inner_tuples = s.outer_tuples = 2048 * M;
  s.bandwidth_bytes = 6.0e9;
  EXPECT_EQ(std::lround(predict_sort_merge_join(s, r).optimal_threads), 17);
  EXPECT_FALSE(predict_sort_merge_join(s, r).network_bound);  // "the SMJ is CPU-bound on both networks"
}

TEST(JoinModel, SingleMachineHasNoNetworkTerm) {
  RadixRates r{100 * M, 100 * M, 100 * M, 100 * M, 1};
  ModelSetting s;
  s.machines = 1;
  s.threads_per_machine = 2;
  s.inner_tuples = s.outer_tuples = 100 * M;
  const ModelPrediction p = predict_radix_join(s, r);
  EXPECT_FALSE(p.network_bound);
  EXPECT_NEAR(p.seconds_of("network_partition"), 1.0, 1e-9);
  EXPECT_EQ(p.seconds_of("local_partition"), 0.0);
  EXPECT_NEAR(p.seconds, 1.0 + 1.0 + 1.0, 1e-9);
}

// Emulated hosts: the network's work runs on the join's cores, so the shipped
// share's network time adds to every tuple's compute time, bound or not.
TEST(JoinModel, NetworkOnSharedCoresAddsToCompute) {
  RadixRates r{100 * M, 50 * M, 100 * M, 100 * M, 1};
  ModelSetting s;
  s.machines = 4;
  s.threads_per_machine = 1;
  s.inner_tuples = s.outer_tuples = 100 * M;  // 50 M tuples per thread
  s.tuple_bytes = 8;
  s.bandwidth_bytes = 8 * 100 * M;  // P_network = 100 M tuples/s: compute-bound, 3/4 * 50 < 100
  s.window_seconds = 0.02;
  const ModelPrediction separate = predict_radix_join(s, r);
  EXPECT_FALSE(separate.network_bound);
  EXPECT_NEAR(separate.seconds_of("network_partition"), 1.0, 1e-9);  // 50 M / 50 M/s
  EXPECT_NEAR(separate.seconds_of("window_allocation"), 0.02, 1e-12);
  s.network_shares_cores = true;
  const ModelPrediction shared = predict_radix_join(s, r);
  EXPECT_TRUE(shared.network_shares_cores);
  EXPECT_NEAR(shared.seconds_of("network_partition"), 1.0 + 0.75 * 50 / 100.0, 1e-9);
  EXPECT_NEAR(shared.seconds - separate.seconds, 0.375, 1e-9);
  s.machines = 1;  // nothing shipped, nothing added
  EXPECT_NEAR(predict_radix_join(s, r).seconds_of("network_partition"), 4.0, 1e-9);  // 200 M / 50 M/s
  EXPECT_FALSE(predict_radix_join(s, r).network_shares_cores);
}

// The 2012 thesis's cluster: 16 machines, 100M + 100M 16-byte tuples each
// (M = 2^20), 870 Mbit/s per link. With compute far faster than the
// network, the models give the thesis's network times (section 3):
// cyclo (n-1) N_S c and broadcast n N_S c.
ModelSetting thesis_cluster() {
  ModelSetting s;
  s.machines = 16;
  s.threads_per_machine = 1;
  s.inner_tuples = s.outer_tuples = 16 * 100.0 * 1048576;
  s.tuple_bytes = 16;
  s.bandwidth_bytes = 870e6 / 8;
  return s;
}

StreamJoinRates fast_rates() {
  StreamJoinRates r;
  r.scan = r.sort_run = r.merge = r.match = 1e15;
  r.chunk_tuples = 4093;  // one UDP datagram's tuples
  return r;
}

TEST(CycloJoinModel, NetworkTimeIsNMinusOnePartsOverTheLink) {
  const double part_seconds = 100.0 * 1048576 * 16 / (870e6 / 8);  // 15.43 s
  const ModelPrediction p = predict_cyclo_join(thesis_cluster(), fast_rates());
  EXPECT_NEAR(p.seconds_of("distribute"), 15 * part_seconds, 1e-3);
  EXPECT_TRUE(p.network_bound);
  EXPECT_NEAR(p.seconds, 15 * part_seconds, 1e-3);
}

TEST(CycloJoinModel, ComputeBoundCyclesAndPresortOff) {
  ModelSetting s;
  s.machines = 1;
  s.threads_per_machine = 4;  // a ring of 4 ranks on one machine
  s.inner_tuples = s.outer_tuples = 4 * 16384;
  StreamJoinRates r;
  r.scan = 2 * M;
  r.sort_run = M;
  r.merge = M;
  r.match = M;
  r.run_length = 16384;  // each fragment is one run: no merge pass
  const ModelPrediction on = predict_cyclo_join(s, r);
  EXPECT_FALSE(on.network_bound);
  EXPECT_NEAR(on.seconds_of("sort"), 32768 / (2 * M) + 2 * 16384 / M, 1e-12);
  EXPECT_NEAR(on.seconds_of("distribute"), 3 * 32768 / M, 1e-12);
  EXPECT_NEAR(on.seconds_of("end"), 32768 / M, 1e-12);
  r.presort = false;
  const ModelPrediction off = predict_cyclo_join(s, r);
  EXPECT_NEAR(off.seconds_of("sort"), 32768 / (2 * M) + 16384 / M, 1e-12);
  EXPECT_NEAR(off.seconds_of("distribute"), 3 * (32768 + 16384) / M, 1e-12);
}

TEST(BroadcastJoinModel, NetworkTimeIsAllOfSOverOneLink) {
  const double s_seconds = 16 * 100.0 * 1048576 * 16 / (870e6 / 8);  // 246.9 s
  const ModelPrediction p = predict_broadcast_join(thesis_cluster(), fast_rates());
  EXPECT_NEAR(p.seconds_of("distribute"), s_seconds, 1e-3 * s_seconds);
  EXPECT_TRUE(p.network_bound);
}

TEST(BroadcastJoinModel, ComputeBoundChunksSortAndLookUp) {
  ModelSetting s;
  s.machines = 1;
  s.threads_per_machine = 4;  // 4 ranks on one machine: no network
  s.inner_tuples = 4 * 65536;
  s.outer_tuples = 8 * 16384;
  StreamJoinRates r;
  r.scan = r.sort_run = r.merge = r.match = M;
  r.run_length = 16384;  // a chunk is one run
  r.chunk_tuples = 16384;
  const double sort = 16384 / M;
  EXPECT_NEAR(predict_broadcast_join(s, r).seconds_of("distribute"), 7 * (sort + 16384 / M), 1e-12);
  r.lookup = M / 8;  // through R's key directory
  const ModelPrediction p = predict_broadcast_join(s, r);
  EXPECT_NEAR(p.seconds_of("distribute"), 7 * (sort + 8 * 16384 / M), 1e-12);
  EXPECT_NEAR(p.seconds_of("end"), sort + 8 * 16384 / M, 1e-12);
}

TEST(StreamJoinModels, RefuseMissingRates) {
  StreamJoinRates r = fast_rates();
  r.match = 0;
  EXPECT_THROW(predict_cyclo_join(thesis_cluster(), r), UsageError);
  r = fast_rates();
  r.chunk_tuples = 0;
  EXPECT_THROW(predict_broadcast_join(thesis_cluster(), r), UsageError);
}

}  // namespace
}  // namespace hpcdb
