// The shuffle model against figures worked out by hand.
#include "hpcdb/model/shuffle_model.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

ShuffleRates shuffle_rates() {
  ShuffleRates r;
  r.count = {400e6, 200e6};
  r.partition = {100e6, 50e6};
  r.consume = {200e6, 100e6};
  r.copy_bandwidth = 5e9;
  r.network_bandwidth = 125e6;  // 1 Gbit/s
  return r;
}

ShuffleModelSetting one_node_two_ranks() {
  ShuffleModelSetting s;
  s.rows = 64e6;
  s.ranks = 2;
  return s;
}

TEST(ShuffleModel, OneNodeStreamingAddsPartitionCopyAndConsumer) {
  const ModelPrediction m = predict_shuffle(one_node_two_ranks(), shuffle_rates());
  EXPECT_DOUBLE_EQ(m.seconds_of("partition"), 0.32);  // 32M rows at 100M/s
  EXPECT_DOUBLE_EQ(m.seconds_of("copy"), 0.0512);     // half of them, 256 MB at 5 GB/s
  EXPECT_DOUBLE_EQ(m.seconds_of("consume"), 0.16);    // 32M received at 200M/s
  EXPECT_DOUBLE_EQ(m.seconds_of("network"), 0);
  EXPECT_DOUBLE_EQ(m.seconds, 0.5312);
  EXPECT_FALSE(m.network_bound);
}

TEST(ShuffleModel, TheBaselineCountsFirstAndOverlapsNothing) {
  ShuffleModelSetting s = one_node_two_ranks();
  s.streaming = false;
  const ModelPrediction m = predict_shuffle(s, shuffle_rates());
  EXPECT_DOUBLE_EQ(m.seconds_of("count"), 0.08);
  EXPECT_DOUBLE_EQ(m.seconds, 0.6112);
}

TEST(ShuffleModel, NoCopyWhenRowsAreWrittenIntoTheDestination) {
  ShuffleModelSetting s = one_node_two_ranks();
  s.copies_on_node = 0;
  EXPECT_DOUBLE_EQ(predict_shuffle(s, shuffle_rates()).seconds, 0.48);
}

TEST(ShuffleModel, SkewMakesTheBusiestReceiverConsumeAndCopyMore) {
  ShuffleModelSetting s = one_node_two_ranks();
  s.busiest_receive_share = 1;  // every row to one rank
  const ModelPrediction m = predict_shuffle(s, shuffle_rates());
  EXPECT_DOUBLE_EQ(m.seconds_of("consume"), 0.32);
  EXPECT_DOUBLE_EQ(m.seconds_of("copy"), 0.1024);
}

TEST(ShuffleModel, EmulatedHostsAreNetworkBound) {
  ShuffleModelSetting s;
  s.rows = 32e6;
  s.ranks = 4;
  s.machines = 4;
  const ModelPrediction overlapped = predict_shuffle(s, shuffle_rates());
  EXPECT_DOUBLE_EQ(overlapped.seconds_of("network"), 0.768);  // 3/4 of 8M rows x 16 B at 125 MB/s
  EXPECT_DOUBLE_EQ(overlapped.seconds_of("copy"), 0);
  EXPECT_DOUBLE_EQ(overlapped.seconds, 0.768);
  EXPECT_TRUE(overlapped.network_bound);
  ShuffleRates shared = shuffle_rates();
  shared.network_shares_cores = true;
  EXPECT_DOUBLE_EQ(predict_shuffle(s, shared).seconds, 0.768 + 0.08 + 0.04);
}

TEST(ShuffleModel, RatesBetweenTheCalibratedWidthsAreInterpolated) {
  const WidthRates r{100e6, 50e6};
  EXPECT_DOUBLE_EQ(r.seconds_per_row(16), 1e-8);
  EXPECT_DOUBLE_EQ(r.seconds_per_row(64), 2e-8);
  EXPECT_DOUBLE_EQ(r.seconds_per_row(40), 1.5e-8);
  EXPECT_DOUBLE_EQ(r.seconds_per_row(112), 3e-8);
}

TEST(ShuffleModel, AMissingFigureIsNamed) {
  ShuffleRates r = shuffle_rates();
  r.copy_bandwidth = 0;
  try {
    predict_shuffle(one_node_two_ranks(), r);
    ADD_FAILURE() << "no copy bandwidth accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("no copy bandwidth"), std::string::npos) << e.what();
  }
  ShuffleModelSetting s = one_node_two_ranks();
  s.machines = 2;
  r = shuffle_rates();
  r.network_bandwidth = 0;
  EXPECT_THROW(predict_shuffle(s, r), UsageError);
  r = shuffle_rates();
  r.partition.rows_per_second_64 = 0;
  EXPECT_THROW(predict_shuffle(one_node_two_ranks(), r), UsageError);
}

}  // namespace
}  // namespace hpcdb
