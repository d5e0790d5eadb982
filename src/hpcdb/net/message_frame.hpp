#pragma once
// The 64-byte unit (one cache line) both transports move: a word that
// marks the frame valid where a transport needs one, a small header (what
// kind of frame, how many payload bytes, which vote slot) and up to
// kMaxMessageBytes of payload.
#include <cstdint>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/message_transport.hpp"

namespace hpcdb {

enum class FrameKind : std::uint8_t { message = 1, vote = 2 };

struct alignas(64) MessageFrame {
  std::uint64_t marker = 0;
  FrameKind kind = FrameKind::message;
  std::uint8_t size = 0;
  std::uint16_t unused = 0;
  std::uint32_t vote_slot = 0;
  std::byte payload[kMaxMessageBytes]{};

  static MessageFrame carrying(const void* bytes, std::size_t size) {
    if (size > kMaxMessageBytes) {
      throw Error("a transport message holds at most " + std::to_string(kMaxMessageBytes) + " bytes, not " +
                  std::to_string(size));
    }
    MessageFrame f;
    f.size = static_cast<std::uint8_t>(size);
    std::memcpy(f.payload, bytes, size);
    return f;
  }

  static MessageFrame vote(std::uint32_t slot, std::uint64_t addend) {
    MessageFrame f;
    f.kind = FrameKind::vote;
    f.vote_slot = slot;
    std::memcpy(f.payload, &addend, sizeof addend);
    return f;
  }

  Envelope open(int origin) const {
    Envelope e;
    e.origin = origin;
    std::memcpy(e.bytes.data(), payload, size);
    return e;
  }
};
static_assert(sizeof(MessageFrame) == 64);

constexpr std::uint64_t kYesVote = 1;
constexpr std::uint64_t kNoVote = std::uint64_t{1} << 32;

}  // namespace hpcdb
