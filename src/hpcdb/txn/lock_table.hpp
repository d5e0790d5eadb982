#pragma once
// The lock table of one lock agent: the locks of a contiguous id range, each
// with a FIFO wait queue, per-mode granted counts and the group mode; a
// transaction table (every lock a transaction holds or waits for) so that one
// end-of-transaction message releases everything; and the pending list of
// locks with waiters, swept for timeouts (bounded wait).
//
// The range may be far larger than memory (ids name table keys): an entry
// exists only while someone holds or waits for its lock, found through a hash
// index, and its storage is reused once the lock is free again.
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
#include <vector>

#include "hpcdb/txn/id_slot_map.hpp"
#include "hpcdb/txn/lock_mode.hpp"
#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb {

enum class DeadlockPolicy {
  bounded_wait,  // wait at most the timeout, then be denied
  no_wait,       // denied at once when the lock cannot be granted
  wait_die,      // an older transaction waits (bounded), a younger one is denied at once
};

// Why a request was denied.
enum class DenyReason : std::uint8_t {
  none = 0,
  timeout = 1,   // waited the bounded-wait timeout
  conflict = 2,  // no-wait: not grantable at once
  died = 3,      // wait-die: younger than a conflicting holder
};
constexpr int kDenyReasons = 4;

struct LockReply {
  TxnId txn = 0;
  int agent = 0;  // the transaction agent to answer
  LockId lock = 0;
  LockMode mode = LockMode::NL;  // the mode now held (on grants)
  bool granted = false;
  DenyReason reason = DenyReason::none;
};

class LockTable {
 public:
  // Manages the ids [first, first + count).
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
  bool knows(TxnId txn) const { return txn_index_.find(txn).has_value(); }

  // Denies every waiting request at a queue's head whose time is up, then
  // grants what became grantable; returns both, to be sent.
  std::vector<LockReply> expire(std::uint64_t now_ns);

  LockMode group(LockId lock) const;
  LockMode held_by(TxnId txn, LockId lock) const;  // NL when not held
  std::size_t waiting(LockId lock) const;
  std::size_t pending_locks() const { return pending_.size(); }
  std::size_t transactions() const { return txn_index_.size(); }
  std::size_t live_entries() const { return entry_index_.size(); }  // locks someone holds or waits for
  LockId first() const { return first_; }
  LockId count() const { return count_; }

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

  void check_range(LockId lock) const;
  Entry* find(LockId lock);
  const Entry* find(LockId lock) const { return const_cast<LockTable*>(this)->find(lock); }
  Entry& find_or_create(LockId lock);
  void drop_if_idle(LockId lock, Entry& e);
  std::vector<LockId>& locks_of(TxnId txn);  // created when missing
  void forget_lock_of(TxnId txn, LockId lock);
  static LockMode group_without(const Entry& e, TxnId txn);
  static Holder* holder_of(Entry& e, TxnId txn);
  bool may_wait(const Entry& e, TxnId txn, LockMode mode) const;
  static void grant(Entry& e, TxnId txn, LockMode mode);
  static void remove_holder_and_waits(Entry& e, TxnId txn);
  void grant_from_head(LockId lock, Entry& e, std::vector<LockReply>& out);

  LockId first_;
  LockId count_;
  DeadlockPolicy policy_;
  std::uint64_t timeout_ns_;
  IdSlotMap entry_index_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> free_entries_;
  IdSlotMap txn_index_;
  std::vector<std::vector<LockId>> txn_locks_;  // held or waited for
  std::vector<std::uint32_t> free_txn_slots_;
  std::set<LockId> pending_;
};

}  // namespace hpcdb
