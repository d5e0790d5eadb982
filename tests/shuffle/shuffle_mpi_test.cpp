// Every shuffle design against a serial reference (shuffle_test_support.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "hpcdb/core/error.hpp"
#include "shuffle/shuffle_test_support.hpp"

namespace hpcdb::testing {
namespace {

class EveryDesign : public ::testing::TestWithParam<ShuffleDesign> {};

TEST_P(EveryDesign, UniformRowsRepeatedOnOneOperator) {
  check_exchange(config_for(GetParam()), rows_of(20000, 16, KeyDistribution::uniform), Inputs::even, 3, "uniform");
}

TEST_P(EveryDesign, EmptyStreams) {
  check_exchange(config_for(GetParam()), rows_of(0, 16, KeyDistribution::uniform), Inputs::even, 2, "no rows at all");
}

TEST_P(EveryDesign, OneRankSendsNothing) {
  check_exchange(config_for(GetParam()), rows_of(5000, 16, KeyDistribution::uniform), Inputs::rank0_sends_nothing, 1,
                 "rank 0 without rows");
}

TEST_P(EveryDesign, AllRowsToOneRankThroughOneCredit) {
  ShuffleConfig config = config_for(GetParam());
  config.buffers = 1;
  config.buffer_bytes = buffer_for(config, 128);  // four rows per batch
  check_exchange(config, rows_of(4000, 16, KeyDistribution::all_to_one), Inputs::even, 2, "all to one");
}

TEST_P(EveryDesign, BatchesSentOutOfOrder) {
  ShuffleConfig config = config_for(GetParam());
  config.reorder_batches = true;
  config.buffer_bytes = 256;
  config.buffers = 2;
  check_exchange(config, rows_of(6000, 16, KeyDistribution::uniform), Inputs::even, 2, "out of order");
}

TEST_P(EveryDesign, WorkerThreadsWithSkewedWiderRows) {
  ShuffleConfig config = config_for(GetParam());
  config.threads = 3;
  config.row_bytes = 32;
  RowWorkloadSpec spec = rows_of(9000, 32, KeyDistribution::zipf);
  spec.zipf_theta = 1.2;
  check_exchange(config, spec, Inputs::even, 2, "threads, zipf");
}

TEST_P(EveryDesign, SoftwareWriteCombining) {
  for (std::uint32_t width : {16u, 64u}) {
    ShuffleConfig config = config_for(GetParam());
    config.row_writes = RowWrites::combining;
    config.row_bytes = width;
    check_exchange(config, rows_of(6000, width, KeyDistribution::zipf), Inputs::even, 1,
                   "write-combining, width " + std::to_string(width));
  }
}

TEST_P(EveryDesign, RowsThatDoNotTileACacheLine) {
  for (std::uint32_t width : {24u, 136u}) {
    ShuffleConfig config = config_for(GetParam());
    config.row_bytes = width;
    check_exchange(config, rows_of(3000, width, KeyDistribution::uniform), Inputs::even, 1, "width " + std::to_string(width));
  }
  ShuffleConfig config = config_for(GetParam());
  config.row_bytes = 64;
  config.buffer_bytes = buffer_for(config, 128);  // one row per batch
  check_exchange(config, rows_of(1500, 64, KeyDistribution::uniform), Inputs::even, 1, "one 64-byte row per batch");
}

TEST_P(EveryDesign, BadParametersAreRefusedOnEveryRank) {
  ShuffleConfig config = config_for(GetParam());
  config.buffer_bytes = 64;
  try {
    make_shuffle(cluster(), config, 100);
    ADD_FAILURE() << "a buffer without room for a row was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no row"), std::string::npos) << e.what();
  }
  config = config_for(GetParam());
  config.buffers = 0;
  try {
    make_shuffle(cluster(), config, 100);
    ADD_FAILURE() << "zero credits were accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--buffers must be at least 1"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Shuffle, EveryDesign, ::testing::ValuesIn(available_shuffle_designs()),
                         [](const auto& info) {
                           std::string name = to_string(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(MpiOneSidedShuffle, ThroughMpiRmaBetweenRanksOfOneNode) {
  ShuffleConfig config = config_for(ShuffleDesign::mpi_one_sided);
  config.direct_writes = false;
  check_exchange(config, rows_of(20000, 16, KeyDistribution::uniform), Inputs::even, 2, "RMA");
  config.threads = 2;
  config.reorder_batches = true;
  check_exchange(config, rows_of(8000, 16, KeyDistribution::zipf), Inputs::rank0_sends_nothing, 1, "RMA, threads");
}

// Full batches exactly at the hybrid threshold go through rings that hold
// four of them (so every ring wraps many times); one byte less of threshold
// sends them two-sided; the last, shorter batch of each stream still takes
// the ring.
TEST(MessageLayerShuffle, BatchesAtTheHybridThresholdAndRingWrapAround) {
  for (std::size_t below : {0u, 1u}) {
    ShuffleConfig config = config_for(ShuffleDesign::message_layer);
    config.buffer_bytes = 1024;
    config.layer.threshold = config.buffer_bytes - 32 - below;  // the batch message's payload, or one byte less
    config.layer.ring_bytes = 4 * 1024;
    check_exchange(config, rows_of(20000, 16, KeyDistribution::uniform), Inputs::even, 2,
                   "threshold " + std::to_string(config.layer.threshold));
  }
}

TEST(MessageLayerShuffle, APoolTooSmallForTheBuffersIsRefused) {
  ShuffleConfig config = config_for(ShuffleDesign::message_layer);
  config.layer.max_message = 1024;  // a pool of 4 KiB holds the largest message, not 3 credits x 2 per peer
  config.layer.pool_bytes = 4096;
  if (cluster().size() == 1) return;  // no streams, no buffers
  try {
    make_shuffle(cluster(), config, 100);
    ADD_FAILURE() << "a pool too small for the shuffle's buffers was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("more than --pool-bytes 4.0 KiB; raise --pool-bytes"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hpcdb::testing
