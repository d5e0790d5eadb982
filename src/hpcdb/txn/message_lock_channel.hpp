#pragma once
// The lock channel of a transaction agent: requests and decisions as
// messages through the transport, a blocking wait for each reply (ending the
// job with a message when a lock agent stays silent for the reply timeout),
// and 2PC votes collected by atomic adds on this agent's vote words. While it
// waits for one lock agent (or for votes), it tells the other lock agents
// where the transaction holds locks that it is still alive: they end the job
// when such a transaction agent stays silent for the reply timeout.
#include <cstdint>
#include <vector>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/lock_channel.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_messages.hpp"

namespace hpcdb {

class MessageLockChannel final : public LockChannel {
 public:
  MessageLockChannel(MessageTransport& transport, const TxnEngineConfig& config, int rank, std::uint64_t start_ns);

  LockAnswer acquire(int agent_rank, TxnId txn, LockId lock, LockMode mode) override;
  void release(int agent_rank, TxnId txn, LockId lock) override;
  bool vote(TxnId txn, std::span<const int> participants) override;
  void end(TxnId txn, std::span<const int> contacted, bool commit) override;

  // Waits for the next message, which must be `type` from `from`.
  TxnMessage await(int from, TxnMessageType type);

 private:
  void keep_alive(std::uint64_t now_ns, int waited_for);

  MessageTransport& transport_;
  const TxnEngineConfig& config_;
  int rank_;
  std::uint64_t start_ns_;
  std::uint32_t votes_taken_ = 0;
  std::vector<int> contacted_;  // lock agents asked for locks since the last end
  std::uint64_t next_keep_alive_ns_ = 0;
};

}  // namespace hpcdb
