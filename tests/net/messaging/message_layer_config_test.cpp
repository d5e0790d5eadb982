#include "hpcdb/net/messaging/message_layer_config.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// The message of the UsageError validate() throws, or "" if it accepts.
std::string rejection(const MessageLayerConfig& c, int ranks = 4) {
  try {
    c.validate(ranks);
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}

TEST(MessageLayerConfig, AcceptsTheDefaults) { EXPECT_EQ(rejection(MessageLayerConfig{}), ""); }

TEST(MessageLayerConfig, AThresholdMessageMustFitTheRing) {
  MessageLayerConfig c;
  c.ring_bytes = 4096;
  c.threshold = 4096 - 32;  // exactly fills the ring with its header
  EXPECT_EQ(rejection(c), "");
  c.threshold = 4096 - 31;
  EXPECT_NE(rejection(c).find("--threshold 4065 does not fit a ring of --ring-bytes 4096"), std::string::npos)
      << rejection(c);
  EXPECT_NE(rejection(c).find("at most 4064"), std::string::npos);
}

TEST(MessageLayerConfig, RejectsBadSizesNamingTheOption) {
  MessageLayerConfig c;
  c.ring_bytes = 0;
  EXPECT_NE(rejection(c).find("--ring-bytes"), std::string::npos);
  c.ring_bytes = 5000;  // not a multiple of 64
  EXPECT_NE(rejection(c).find("--ring-bytes"), std::string::npos);
  c.threshold = 0;  // all two-sided: the ring's size does not matter
  EXPECT_EQ(rejection(c), "");
  c = {};
  c.head_batch = 0;
  EXPECT_NE(rejection(c).find("--head-batch"), std::string::npos);
  c = {};
  c.waitall_batch = 0;
  EXPECT_NE(rejection(c).find("--waitall-batch"), std::string::npos);
  c = {};
  c.waitall_timeout_us = -1;
  EXPECT_NE(rejection(c).find("--waitall-timeout"), std::string::npos);
  c = {};
  c.best_effort_weight = 0;
  EXPECT_NE(rejection(c).find("--best-effort-weight"), std::string::npos);
  c = {};
  c.max_message = 0;
  EXPECT_NE(rejection(c).find("--max-message"), std::string::npos);
  c = {};
  c.pool_bytes = 1 << 20;  // less than one 64 MiB message
  EXPECT_NE(rejection(c).find("--pool-bytes"), std::string::npos);
  c = {};
  c.threshold = 1 << 20;
  c.ring_bytes = 4 << 20;
  c.max_message = 4096;
  EXPECT_NE(rejection(c).find("exceeds --max-message"), std::string::npos);
  c = {};
  c.stall_timeout = 0;
  EXPECT_NE(rejection(c).find("--stall-timeout"), std::string::npos);
}

TEST(MessageLayerConfig, RefusesRingsThatDoNotFitInMemory) {
  MessageLayerConfig c;
  c.ring_bytes = std::size_t{1} << 30;
  EXPECT_NE(rejection(c, 4096).find("lower --ring-bytes"), std::string::npos);
}

TEST(MessageLayerConfig, NamesParseBothWays) {
  EXPECT_EQ(parse_priority("latency"), Priority::latency);
  EXPECT_EQ(to_string(Priority::best_effort), "best-effort");
  EXPECT_EQ(parse_thread_mode("specialised"), ThreadMode::specialised);
  EXPECT_EQ(parse_priority_policy("weighted"), PriorityPolicy::weighted);
  EXPECT_THROW(parse_priority_policy("fair"), UsageError);
}

}  // namespace
}  // namespace hpcdb
