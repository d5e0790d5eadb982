#pragma once
// The first cache line of every batch a shuffle ships: who sent it, on which
// stream, its position in that stream, and how many rows follow. A stream is
// the batches one sending thread of one rank sends to one destination rank.
// Transports may reorder batches; the receiver puts streams together from
// these fields alone (stream_tracker.hpp).
#include <cstdint>
#include <string>

#include "hpcdb/shuffle/shuffle_config.hpp"

namespace hpcdb {

inline constexpr std::uint16_t kBatchMagic = 0x5348;  // "SH"
inline constexpr std::uint8_t kBatchVersion = 1;
// The stream's last batch: `seq` + 1 batches make up the whole stream.
inline constexpr std::uint8_t kLastBatch = 1;

struct alignas(64) BatchHeader {
  std::uint16_t magic = kBatchMagic;
  std::uint8_t version = kBatchVersion;
  std::uint8_t flags = 0;
  std::uint32_t source = 0;     // sending rank
  std::uint32_t stream = 0;     // sending thread (= receiving thread)
  std::uint32_t row_bytes = 0;  // width of every row
  std::uint64_t seq = 0;        // 0, 1, ... within the stream, in the order the sender acquired buffers
  std::uint64_t rows = 0;       // rows that follow the header
  std::uint64_t reserved[4] = {};

  bool last() const { return (flags & kLastBatch) != 0; }
  std::uint64_t payload_bytes() const { return rows * row_bytes; }
};
static_assert(sizeof(BatchHeader) == kBatchHeaderBytes);

// Throws Error naming what is wrong when a received header is not a batch of
// this shuffle: bad magic or version, a width or stream that differs from the
// plan, or more rows than a buffer holds.
void check_header(const BatchHeader& header, int ranks, const ShuffleConfig& config, std::size_t received_bytes);

}  // namespace hpcdb
