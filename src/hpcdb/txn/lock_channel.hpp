#pragma once
// How a transaction talks to the lock agents: lock requests answered with a
// grant or a denial, early releases, the 2PC vote and the end of the
// transaction. The engine's channel sends messages (message_lock_channel.hpp);
// tests may answer from a lock table in the same process.
#include <span>

#include "hpcdb/txn/lock_table.hpp"

namespace hpcdb {

struct LockAnswer {
  bool granted = false;
  LockMode mode = LockMode::NL;  // held now (on grants)
  DenyReason reason = DenyReason::none;
};

class LockChannel {
 public:
  virtual ~LockChannel() = default;
  // Blocks until the lock agent `agent_rank` answers.
  virtual LockAnswer acquire(int agent_rank, TxnId txn, LockId lock, LockMode mode) = 0;
  // Releases one lock before the end (no answer).
  virtual void release(int agent_rank, TxnId txn, LockId lock) = 0;
  // 2PC phase 1: true when every participant voted yes in time.
  virtual bool vote(TxnId txn, std::span<const int> participants) = 0;
  // The decision, which releases all of the transaction's locks at each agent contacted.
  virtual void end(TxnId txn, std::span<const int> contacted, bool commit) = 0;
};

}  // namespace hpcdb
