#pragma once
// A transaction agent: runs one transaction at a time, drawn from its
// workload's source. Each attempt runs the transaction's program, which takes
// its locks one after the other (blocking on each reply) and reads and writes
// the data one-sidedly; the attempt then commits (with 2PC when it wrote at
// more than one lock agent) or, when a lock was denied or a participant voted
// no, rolls back and is retried after a random pause that doubles each time
// (--retries, --backoff), keeping its transaction id so that wait-die sees
// its age. Every attempt counts in the metrics.
#include <memory>
#include <random>
#include <vector>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/message_lock_channel.hpp"
#include "hpcdb/txn/transaction.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_metrics.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

// The locks a committed transaction was granted, for lock traces.
struct TracedTransaction {
  std::uint32_t home;
  int type;
  std::vector<GrantedLock> grants;
};

class TransactionAgent {
 public:
  // Throws UsageError when the workload cannot run on this agent.
  TransactionAgent(MessageTransport& transport, DataAccess& data, const AgentRoles& roles, const LockSpace& space,
                   const WorkloadDefinition& workload, const TxnEngineConfig& config, int rank);

  // Measures transport round trips to lock agents (for the model), then runs
  // transactions for the configured duration or count, then tells every lock agent it is done.
  TxnMetrics run();
  // Committed transactions, encoded (when the config records history).
  const std::vector<std::uint64_t>& history() const { return history_; }
  // Committed transactions' granted locks (when the config writes lock traces).
  const std::vector<TracedTransaction>& traced() const { return traced_; }

 private:
  enum class AttemptEnd { committed, rolled_back, aborted };

  void calibrate();
  void run_transaction(const NextTransaction& next);
  AttemptEnd attempt(const NextTransaction& next);
  void account(const NextTransaction& next, AttemptEnd end, std::uint64_t attempt_ns);
  void pause_before_retry(int retry);
  TxnId next_txn_id(std::uint64_t now_ns);

  MessageTransport& transport_;
  const AgentRoles& roles_;
  const TxnEngineConfig& config_;
  int rank_;
  int index_;
  std::uint64_t start_ns_;
  MessageLockChannel channel_;
  TxnMetrics metrics_;
  Transaction txn_;
  std::unique_ptr<TransactionSource> source_;
  std::mt19937_64 rng_;
  TxnId last_id_ = 0;
  std::vector<std::uint64_t> history_;
  std::vector<TracedTransaction> traced_;
};

}  // namespace hpcdb
