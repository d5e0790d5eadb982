#include "hpcdb/shuffle/shuffle_config.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/shuffle/batch_header.hpp"

namespace hpcdb {
namespace {

std::string complaint(const ShuffleConfig& c) {
  try {
    validate(c);
  } catch (const UsageError& e) {
    return e.what();
  }
  return {};
}

TEST(ShuffleConfig, BatchesHoldWholeCacheLinesOfRowsThatTileThem) {
  ShuffleConfig c;
  c.buffer_bytes = 256 * 1024;
  c.row_bytes = 16;
  EXPECT_EQ(rows_per_batch(c), (256 * 1024 - 64) / 16);
  c.buffer_bytes = 128;
  EXPECT_EQ(rows_per_batch(c), 4u);
  c.row_bytes = 64;
  EXPECT_EQ(rows_per_batch(c), 1u);
  c.row_bytes = 24;  // copied row by row
  EXPECT_EQ(rows_per_batch(c), 2u);
  c.row_bytes = 128;
  c.buffer_bytes = 64 + 3 * 128 + 64;
  EXPECT_EQ(rows_per_batch(c), 3u);
}

TEST(ShuffleConfig, ABufferTooSmallForOneRowIsRefusedWithTheSizeThatWorks) {
  ShuffleConfig c;
  c.buffer_bytes = 64;
  EXPECT_NE(complaint(c).find("--buffer-size 64 B holds no row of 16 B after the 64-byte batch header; use at least 128 B"),
            std::string::npos)
      << complaint(c);
  c.row_bytes = 200;
  c.buffer_bytes = 256;
  EXPECT_NE(complaint(c).find("use at least 320 B"), std::string::npos) << complaint(c);
  c.buffer_bytes = 320;
  EXPECT_EQ(complaint(c), "");
}

TEST(ShuffleConfig, MessageLayerBatchesLeaveRoomForTheLayersHeader) {
  ShuffleConfig c;
  c.design = ShuffleDesign::message_layer;
  c.buffer_bytes = 256 * 1024;  // exactly one pool size class, the layer's header included
  EXPECT_EQ(rows_per_batch(c), (256 * 1024 - 128) / 16);
  c.buffer_bytes = 128;
  EXPECT_NE(complaint(c).find("after the 64-byte batch header and the message layer's 64 bytes; use at least 192 B"),
            std::string::npos)
      << complaint(c);
  c.buffer_bytes = 192;
  EXPECT_EQ(rows_per_batch(c), 4u);
}

TEST(ShuffleConfig, ZeroCreditsAndOtherBadValuesAreRefused) {
  ShuffleConfig c;
  c.buffers = 0;
  EXPECT_NE(complaint(c).find("--buffers must be at least 1"), std::string::npos);
  c = ShuffleConfig{};
  c.threads = 0;
  EXPECT_NE(complaint(c).find("--threads"), std::string::npos);
  c = ShuffleConfig{};
  c.row_bytes = 20;
  EXPECT_NE(complaint(c).find("multiple of 8"), std::string::npos);
  c.row_bytes = 8;
  EXPECT_NE(complaint(c).find("between 16 and 4096"), std::string::npos);
  c = ShuffleConfig{};
  c.buffer_bytes = 1000;
  EXPECT_NE(complaint(c).find("multiple of 64"), std::string::npos);
  c = ShuffleConfig{};
  c.row_bytes = 24;
  c.row_writes = RowWrites::combining;
  EXPECT_NE(complaint(c).find("--row-writes combining needs rows of 16, 32 or 64 bytes"), std::string::npos);
  EXPECT_EQ(complaint(ShuffleConfig{}), "");
}

TEST(BatchHeader, MalformedHeadersAreRecognised) {
  ShuffleConfig c;
  c.buffer_bytes = 1024;
  BatchHeader h;
  h.row_bytes = 16;
  h.source = 1;
  h.rows = rows_per_batch(c);
  EXPECT_NO_THROW(check_header(h, 2, c, 64 + h.rows * 16));
  EXPECT_THROW(check_header(h, 2, c, 64 + h.rows * 16 - 16), Error);  // truncated
  BatchHeader bad = h;
  bad.magic = 0;
  EXPECT_THROW(check_header(bad, 2, c, 0), Error);
  bad = h;
  bad.source = 2;
  EXPECT_THROW(check_header(bad, 2, c, 0), Error);
  bad = h;
  bad.rows = h.rows + 1;
  EXPECT_THROW(check_header(bad, 2, c, 0), Error);
  bad = h;
  bad.row_bytes = 32;
  EXPECT_THROW(check_header(bad, 2, c, 0), Error);
  bad = h;
  bad.stream = 1;  // one thread
  EXPECT_THROW(check_header(bad, 2, c, 0), Error);
}

}  // namespace
}  // namespace hpcdb
