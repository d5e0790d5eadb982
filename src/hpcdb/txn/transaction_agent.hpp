#pragma once
// A transaction agent: runs one transaction at a time. It acquires the
// transaction's locks one after the other, blocking on each reply; once all
// are held it reads and writes the guarded records one-sidedly; it commits
// with two-phase commit (votes by atomic add on its vote word) when it wrote
// at more than one lock agent, and otherwise at once; the decision, sent to
// every lock agent it contacted, releases all locks there. A denied lock
// aborts the transaction (it is not retried). While it waits for one agent,
// it tells the others where it holds locks that it is still alive.
#include <random>
#include <vector>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/record_store.hpp"
#include "hpcdb/txn/synthetic_workload.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_history.hpp"
#include "hpcdb/txn/txn_messages.hpp"
#include "hpcdb/txn/txn_metrics.hpp"

namespace hpcdb {

class TransactionAgent {
 public:
  TransactionAgent(MessageTransport& transport, RecordStore& records, const AgentRoles& roles,
                   const TxnEngineConfig& config, int rank);

  // Measures transport round trips to lock agents (for the model), then runs
  // transactions for the configured duration or count, then tells every lock agent it is done.
  TxnMetrics run();
  // Committed transactions, encoded (when the config records history).
  const std::vector<std::uint64_t>& history() const { return history_; }

 private:
  enum class Outcome { committed, denied, voted_out };

  void calibrate();
  Outcome run_one(std::uint64_t begin_ns);
  TxnId next_txn_id(std::uint64_t now_ns);
  TxnMessage await(int from, TxnMessageType type);
  bool acquire(TxnId txn, const PlannedLock& lock, int owner);
  void access_records(TxnId txn);
  bool vote(TxnId txn);
  void finish(TxnId txn, bool commit);
  void note_contact(int lock_agent, std::vector<int>& list);
  void keep_alive(std::uint64_t now_ns, int waited_for);

  MessageTransport& transport_;
  RecordStore& records_;
  const AgentRoles& roles_;
  const TxnEngineConfig& config_;
  int rank_;
  int index_;
  SyntheticWorkload workload_;
  std::mt19937_64 rng_;
  std::uint64_t start_ns_ = 0;
  TxnId last_id_ = 0;
  std::uint64_t local_number_ = 0;
  std::uint64_t next_keep_alive_ns_ = 0;

  // The transaction in flight; reused, so the loop does not allocate.
  std::vector<PlannedLock> plan_;
  std::vector<int> contacted_;
  std::vector<int> writers_;
  std::vector<Record> seen_;      // per planned lock, the version read
  std::vector<Record> written_;   // per planned lock, the new image
  CommittedTxn record_;

  TxnMetrics metrics_;
  std::vector<std::uint64_t> history_;
};

}  // namespace hpcdb
