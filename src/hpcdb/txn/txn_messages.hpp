#pragma once
// The messages between transaction agents and lock agents. Each fits one
// transport message (kMaxMessageBytes); the first byte says which it is.
// encode() and decode() are the only way in and out of the wire format, and
// decode() refuses bytes that no sender could have written.
#include <cstddef>
#include <cstdint>
#include <span>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/lock_table.hpp"

namespace hpcdb {

enum class TxnMessageType : std::uint8_t {
  lock_request = 1,    // TX -> LT: lock `lock` in `mode` for `txn`
  lock_reply = 2,      // LT -> TX: granted or denied (and why), with the lock agent's timings
  release = 3,         // TX -> LT: release one lock early (read committed)
  vote_request = 4,    // TX -> LT: 2PC phase 1; the answer is a vote on `vote_slot`
  end_of_txn = 5,      // TX -> LT: commit or abort; release everything of `txn`
  ping = 6,            // TX -> LT: answered at once (latency calibration)
  pong = 7,            // LT -> TX
  agent_done = 8,      // TX -> LT: this transaction agent sends nothing more
  keep_alive = 9,      // TX -> LT: still alive (at least every quarter of the reply timeout)
};

struct TxnMessage {
  TxnMessageType type = TxnMessageType::ping;
  LockMode mode = LockMode::NL;
  std::uint8_t granted = 0;  // lock_reply
  std::uint8_t commit = 0;   // end_of_txn
  DenyReason reason = DenyReason::none;  // lock_reply, when denied
  std::uint32_t vote_slot = 0;
  TxnId txn = 0;
  LockId lock = 0;
  std::uint32_t queued_ns = 0;   // lock_reply: time the request waited in the lock's queue
  std::uint32_t service_ns = 0;  // lock_reply: the lock agent's own work on it
};

constexpr std::size_t kTxnMessageBytes = 40;
static_assert(kTxnMessageBytes <= kMaxMessageBytes);

// Writes `m` into `out` (at least kTxnMessageBytes) in little-endian order; returns the bytes used.
std::size_t encode(const TxnMessage& m, std::span<std::byte> out);
// Reads a message; throws Error naming what is wrong when the bytes are not one.
TxnMessage decode(std::span<const std::byte> in);

void send_message(MessageTransport& t, int target, const TxnMessage& m);
inline TxnMessage message_in(const Envelope& e) { return decode(e.bytes); }

}  // namespace hpcdb
