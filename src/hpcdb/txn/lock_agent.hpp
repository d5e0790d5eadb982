#pragma once
// A lock agent: owns a range of locks (lock_table.hpp), answers the
// transaction agents' requests from its mailbox, votes in 2PC, releases a
// transaction's locks on its decision, and denies requests whose bounded wait
// expired. It knows nothing about the data its locks guard or the workload:
// transactions read and write that data one-sidedly and undo their own writes.
// It runs until every transaction agent has said it is done, and ends the job
// naming the transaction agent that fell silent: one that has not finished
// and has sent nothing (not even a keep-alive) for --reply-timeout.
#include <random>
#include <unordered_map>
#include <vector>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/lock_space.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_messages.hpp"
#include "hpcdb/txn/txn_metrics.hpp"

namespace hpcdb {

class LockAgent {
 public:
  LockAgent(MessageTransport& transport, const AgentRoles& roles, const LockSpace& space,
            const TxnEngineConfig& config, int rank);

  // Serves requests until all transaction agents are done; returns its counts and timings.
  TxnMetrics run();
  // With the config's record_history: every 2PC vote it cast, with the
  // decision it then received, encoded (txn_history.hpp).
  const std::vector<std::uint64_t>& vote_log() const { return vote_log_; }

 private:
  struct Waiting {
    std::uint64_t arrived_ns;
    std::uint64_t service_ns;
  };
  // What this lock agent knows of one transaction agent (indexed by world rank).
  struct Peer {
    std::uint64_t last_heard_ns = 0;
    bool in_transaction = false;  // has asked for a lock here and not yet ended that transaction
    bool queued = false;          // waits for this agent's answer to a lock request
    bool done = false;
  };

  void handle(const Envelope& e);
  void on_lock_request(int origin, const TxnMessage& m, std::uint64_t arrived_ns);
  void on_vote_request(int origin, const TxnMessage& m);
  void on_end_of_txn(const TxnMessage& m);
  void answer(const LockReply& reply, std::uint64_t queued_ns, std::uint64_t service_ns);
  void answer_deferred(const std::vector<LockReply>& replies);
  void check_liveness(std::uint64_t now_ns) const;
  // Unfinished transaction agents silent for the reply timeout, holding locks here or not.
  std::vector<int> silent_agents(std::uint64_t now_ns, bool holding_locks) const;

  MessageTransport& transport_;
  const AgentRoles& roles_;
  const TxnEngineConfig& config_;
  int rank_;
  LockTable table_;
  std::mt19937_64 rng_;
  std::unordered_map<TxnId, Waiting> waiting_;  // a transaction waits for at most one lock
  std::unordered_map<TxnId, bool> votes_cast_;  // awaiting their decision (with record_history)
  std::vector<std::uint64_t> vote_log_;
  std::vector<Peer> peers_;
  TxnMetrics metrics_;
  std::size_t agents_done_ = 0;
  std::uint64_t start_ns_ = 0;
};

}  // namespace hpcdb
