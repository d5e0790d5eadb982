#pragma once
// The lock table of one lock agent: the locks of a contiguous id range, each
// with a FIFO wait queue, per-mode granted counts and the group mode; a
// transaction table (every lock a transaction holds or waits for) so that one
// end-of-transaction message releases everything; and the pending list of
// locks with waiters, swept for timeouts (bounded wait).
//
// Grant policy (strict 2PL): a new request is granted at once only if no one
// waits and it is compatible with the granted group (no barging past
// waiters); waiters are granted from the head, in order, while compatible.
// A transaction asking for another mode on a lock it holds converts its lock
// to the supremum of both modes (S + X -> X, IX + S -> SIX); a conversion
// that must wait goes ahead of every new request (behind earlier conversions).
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "hpcdb/txn/lock_mode.hpp"

namespace hpcdb {

using TxnId = std::uint64_t;  // also the transaction's age: smaller is older (wait-die)
using LockId = std::uint64_t;

enum class DeadlockPolicy {
  bounded_wait,  // wait at most the timeout, then be denied
  no_wait,       // denied at once when the lock cannot be granted
  wait_die,      // an older transaction waits (bounded), a younger one is denied at once
};

struct LockReply {
  TxnId txn = 0;
  int agent = 0;  // the transaction agent to answer
  LockId lock = 0;
  LockMode mode = LockMode::NL;  // the mode now held (on grants)
  bool granted = false;
};

class LockTable {
 public:
  LockTable(LockId first, LockId count, DeadlockPolicy policy, std::uint64_t timeout_ns);

  // The answer when it is decided at once (granted or denied); nothing when
  // the request waits (its answer comes from release_all or expire).
  std::optional<LockReply> request(TxnId txn, int agent, LockId lock, LockMode mode, std::uint64_t now_ns);

  // Releases every lock `txn` holds and withdraws its waiting requests;
  // returns the grants this makes possible, to be sent.
  std::vector<LockReply> release_all(TxnId txn);

  // Releases one lock `txn` holds (early release, e.g. read locks under read
  // committed); returns the grants this makes possible.
  std::vector<LockReply> release(TxnId txn, LockId lock);

  // Whether `txn` holds or waits for any lock here.
  bool knows(TxnId txn) const { return txn_locks_.contains(txn); }

  // Denies every waiting request at a queue's head whose time is up, then
  // grants what became grantable; returns both, to be sent.
  std::vector<LockReply> expire(std::uint64_t now_ns);

  LockMode group(LockId lock) const;
  LockMode held_by(TxnId txn, LockId lock) const;  // NL when not held
  std::size_t waiting(LockId lock) const;
  std::size_t pending_locks() const { return pending_.size(); }
  std::size_t transactions() const { return txn_locks_.size(); }
  LockId first() const { return first_; }
  LockId count() const { return entries_.size(); }

 private:
  struct Waiter {
    TxnId txn;
    int agent;
    LockMode mode;  // the mode the transaction will hold once granted
    std::uint64_t deadline_ns;
    bool conversion;
  };
  struct Holder {
    TxnId txn;
    LockMode mode;
  };
  struct Entry {
    std::array<std::uint32_t, kLockModes> granted{};
    std::vector<Holder> holders;
    std::vector<Waiter> queue;  // short in practice: a vector is smaller than an empty deque
  };

  Entry& entry(LockId lock);
  const Entry& entry(LockId lock) const;
  static LockMode group_without(const Entry& e, TxnId txn);
  static Holder* holder_of(Entry& e, TxnId txn);
  bool may_wait(const Entry& e, TxnId txn, LockMode mode) const;
  void grant(Entry& e, TxnId txn, LockMode mode);
  void grant_from_head(LockId lock, std::vector<LockReply>& out);

  LockId first_;
  DeadlockPolicy policy_;
  std::uint64_t timeout_ns_;
  std::vector<Entry> entries_;
  std::unordered_map<TxnId, std::vector<LockId>> txn_locks_;  // held or waited for
  std::set<LockId> pending_;
};

}  // namespace hpcdb
