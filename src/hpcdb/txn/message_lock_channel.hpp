#pragma once
// The lock channel of a transaction agent: requests and decisions as
// messages through the transport, a blocking wait for each reply (ending the
// job with a message when a lock agent stays silent for the reply timeout),
// and 2PC votes collected by atomic adds on this agent's vote words. At least
// every quarter of the reply timeout, whatever it is doing (waiting for a
// reply or for votes, between transactions, pausing before a retry), it tells
// every lock agent that it is alive: a lock agent ends the job when a
// transaction agent that has not finished stays silent for the reply timeout.
#include <cstdint>
#include <vector>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/lock_channel.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_messages.hpp"

namespace hpcdb {

class MessageLockChannel final : public LockChannel {
 public:
  MessageLockChannel(MessageTransport& transport, const TxnEngineConfig& config, int rank, std::uint64_t start_ns,
                     std::vector<int> lock_agents);

  LockAnswer acquire(int agent_rank, TxnId txn, LockId lock, LockMode mode) override;
  void release(int agent_rank, TxnId txn, LockId lock) override;
  bool vote(TxnId txn, std::span<const int> participants) override;
  void end(TxnId txn, std::span<const int> contacted, bool commit) override;

  // Waits for the next message, which must be `type` from `from`.
  TxnMessage await(int from, TxnMessageType type);

  // Tells every lock agent this agent is alive, if the last time was a
  // quarter of the reply timeout ago (skipping one whose mailbox is full).
  void keep_alive(std::uint64_t now_ns);
  // A quarter of the reply timeout: how often keep_alive() must be called.
  std::uint64_t keep_alive_interval_ns() const { return config_.reply_timeout_ns / 4; }

 private:
  // Sends once `agent`'s mailbox has room, telling the other lock agents
  // meanwhile that this agent is alive; ends the job naming `agent` when it
  // takes nothing for the reply timeout.
  void send_to(int agent, const TxnMessage& m);

  MessageTransport& transport_;
  const TxnEngineConfig& config_;
  int rank_;
  std::uint64_t start_ns_;
  std::uint32_t votes_taken_ = 0;
  std::vector<int> lock_agents_;
  std::uint64_t next_keep_alive_ns_ = 0;
};

}  // namespace hpcdb
