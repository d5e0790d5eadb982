#pragma once
// The 32 bytes in front of every message's payload, in the pooled buffer and
// on the wire (ring records and two-sided messages alike), so that a buffer
// goes out as it is, without a copy. In a ring a record is this header, the
// payload, and padding to a multiple of 8 bytes; a header whose size is
// kWrapMarker sends the reader back to the start of the ring.
#include <cstddef>
#include <cstdint>

#include "hpcdb/net/messaging/message_layer_config.hpp"

namespace hpcdb {

struct MessageHeader {
  static constexpr std::uint32_t kWrapMarker = 0xFFFFFFFFu;
  static constexpr std::uint16_t kMagic = 0x4d4c;  // "ML"

  std::uint32_t payload_bytes = 0;
  std::uint32_t endpoint = 0;
  std::uint32_t source = 0;
  std::uint32_t stream = 0;
  std::uint64_t sequence = 0;
  std::uint16_t magic = kMagic;
  std::uint8_t priority = 0;
  std::uint8_t drain_parity = 0;  // the sender's drain epoch, modulo 2 (see MessageEngine::drain)
  std::uint32_t unused32 = 0;
};
static_assert(sizeof(MessageHeader) == 32);

constexpr std::size_t kRecordAlignment = 8;

// Bytes a message of `payload` bytes takes in a ring.
constexpr std::size_t ring_record_bytes(std::size_t payload) {
  return sizeof(MessageHeader) + (payload + kRecordAlignment - 1) / kRecordAlignment * kRecordAlignment;
}

}  // namespace hpcdb
