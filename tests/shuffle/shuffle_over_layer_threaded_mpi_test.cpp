// The message-layer shuffle design with network threads of the layer's own
// (handlers on those threads queue batches for the workers), against the
// serial reference of the shuffle's tests.
#include <gtest/gtest.h>

#include <string>

#include "shuffle/shuffle_test_support.hpp"

namespace hpcdb::testing {
namespace {

TEST(MessageLayerShuffle, NetworkThreadsCarryTheBatches) {
  struct Mode {
    unsigned net_threads;
    ThreadMode mode;
    unsigned workers;
  };
  for (const Mode m : {Mode{1, ThreadMode::homogeneous, 1}, Mode{2, ThreadMode::specialised, 3},
                       Mode{2, ThreadMode::homogeneous, 2}}) {
    ShuffleConfig config = config_for(ShuffleDesign::message_layer);
    config.layer.threads = m.net_threads;
    config.layer.thread_mode = m.mode;
    config.threads = m.workers;
    config.reorder_batches = m.workers > 1;
    RowWorkloadSpec spec = rows_of(12000, 16, KeyDistribution::zipf);
    spec.zipf_theta = 1.1;
    check_exchange(config, spec, Inputs::even, 2,
                   std::to_string(m.net_threads) + " network threads, " + std::to_string(m.workers) + " workers");
  }
}

TEST(MessageLayerShuffle, NetworkThreadsWithAllRowsToOneRank) {
  ShuffleConfig config = config_for(ShuffleDesign::message_layer);
  config.layer.threads = 1;
  config.buffers = 1;
  config.buffer_bytes = buffer_for(config, 256);
  check_exchange(config, rows_of(6000, 16, KeyDistribution::all_to_one), Inputs::rank0_sends_nothing, 2, "all to one");
}

}  // namespace
}  // namespace hpcdb::testing
