#pragma once
// The messages between transaction agents and lock agents. Each fits one
// transport message (kMaxMessageBytes); the first byte says which it is.
#include <cstdint>
#include <cstring>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/lock_table.hpp"

namespace hpcdb {

enum class TxnMessageType : std::uint8_t {
  lock_request = 1,    // TX -> LT: lock `lock` in `mode` for `txn`
  lock_reply = 2,      // LT -> TX: granted or denied, with the lock agent's timings
  release = 3,         // TX -> LT: release one lock early (read committed)
  vote_request = 4,    // TX -> LT: 2PC phase 1; the answer is a vote on `vote_slot`
  end_of_txn = 5,      // TX -> LT: commit or abort; release everything of `txn`
  ping = 6,            // TX -> LT: answered at once (latency calibration)
  pong = 7,            // LT -> TX
  agent_done = 8,      // TX -> LT: this transaction agent sends nothing more
  keep_alive = 9,      // TX -> LT: still alive, while it waits elsewhere holding locks here
};

struct TxnMessage {
  TxnMessageType type = TxnMessageType::ping;
  LockMode mode = LockMode::NL;
  std::uint8_t granted = 0;  // lock_reply
  std::uint8_t commit = 0;   // end_of_txn
  std::uint32_t vote_slot = 0;
  TxnId txn = 0;
  LockId lock = 0;
  std::uint32_t queued_ns = 0;   // lock_reply: time the request waited in the lock's queue
  std::uint32_t service_ns = 0;  // lock_reply: the lock agent's own work on it
};
static_assert(sizeof(TxnMessage) <= kMaxMessageBytes);

inline void send_message(MessageTransport& t, int target, const TxnMessage& m) { t.send(target, &m, sizeof m); }

inline TxnMessage message_in(const Envelope& e) {
  TxnMessage m;
  std::memcpy(&m, e.bytes.data(), sizeof m);
  return m;
}

}  // namespace hpcdb
