#include "hpcdb/txn/lock_table.hpp"

#include <algorithm>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

DenyReason reason_for(DeadlockPolicy policy) {
  return policy == DeadlockPolicy::no_wait ? DenyReason::conflict : DenyReason::died;
}

}  // namespace

LockTable::LockTable(LockId first, LockId count, DeadlockPolicy policy, std::uint64_t timeout_ns)
    : first_(first), count_(count), policy_(policy), timeout_ns_(timeout_ns) {}

void LockTable::check_range(LockId lock) const {
  if (lock < first_ || lock - first_ >= count_) {
    throw Error("lock " + std::to_string(lock) + " is not managed by this lock agent");
  }
}

LockTable::Entry* LockTable::find(LockId lock) {
  const auto slot = entry_index_.find(lock);
  return slot ? &entries_[*slot] : nullptr;
}

LockTable::Entry& LockTable::find_or_create(LockId lock) {
  if (Entry* e = find(lock)) return *e;
  check_range(lock);
  std::uint32_t slot;
  if (!free_entries_.empty()) {
    slot = free_entries_.back();
    free_entries_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  entry_index_.insert(lock, slot);
  return entries_[slot];
}

void LockTable::drop_if_idle(LockId lock, Entry& e) {
  if (!e.holders.empty() || !e.queue.empty()) return;
  const std::uint32_t slot = *entry_index_.find(lock);
  entry_index_.erase(lock);
  free_entries_.push_back(slot);  // keeps its vectors' capacity for the next lock
}

std::vector<LockId>& LockTable::locks_of(TxnId txn) {
  if (const auto slot = txn_index_.find(txn)) return txn_locks_[*slot];
  std::uint32_t slot;
  if (!free_txn_slots_.empty()) {
    slot = free_txn_slots_.back();
    free_txn_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(txn_locks_.size());
    txn_locks_.emplace_back().reserve(16);
  }
  txn_index_.insert(txn, slot);
  return txn_locks_[slot];
}

void LockTable::forget_lock_of(TxnId txn, LockId lock) {
  const auto slot = txn_index_.find(txn);
  if (!slot) return;
  auto& locks = txn_locks_[*slot];
  const auto it = std::find(locks.begin(), locks.end(), lock);
  if (it != locks.end()) locks.erase(it);
  if (locks.empty()) {
    txn_index_.erase(txn);
    free_txn_slots_.push_back(*slot);
  }
}

LockMode LockTable::group_without(const Entry& e, TxnId txn) {
  std::array<std::uint32_t, kLockModes> others = e.granted;
  for (const Holder& h : e.holders) {
    if (h.txn == txn) --others[static_cast<std::size_t>(index_of(h.mode))];
  }
  return group_mode(others);
}

LockTable::Holder* LockTable::holder_of(Entry& e, TxnId txn) {
  for (Holder& h : e.holders)
    if (h.txn == txn) return &h;
  return nullptr;
}

bool LockTable::may_wait(const Entry& e, TxnId txn, LockMode mode) const {
  switch (policy_) {
    case DeadlockPolicy::no_wait:
      return false;
    case DeadlockPolicy::bounded_wait:
      return true;
    case DeadlockPolicy::wait_die:
      // Wait only if older than every transaction holding a conflicting mode.
      for (const Holder& h : e.holders) {
        if (h.txn != txn && !compatible(mode, h.mode) && h.txn < txn) return false;
      }
      return true;
  }
  return false;
}

void LockTable::grant(Entry& e, TxnId txn, LockMode mode) {
  if (Holder* h = holder_of(e, txn)) {
    --e.granted[static_cast<std::size_t>(index_of(h->mode))];
    h->mode = mode;
  } else {
    e.holders.push_back({txn, mode});
  }
  ++e.granted[static_cast<std::size_t>(index_of(mode))];
}

std::optional<LockReply> LockTable::request(TxnId txn, int agent, LockId lock, LockMode mode, std::uint64_t now_ns) {
  check_range(lock);
  Entry* found = find(lock);
  Holder* held = found ? holder_of(*found, txn) : nullptr;
  if (mode == LockMode::NL) return LockReply{txn, agent, lock, held ? held->mode : LockMode::NL, true};
  if (held != nullptr) {
    Entry& e = *found;
    const LockMode target = supremum(held->mode, mode);
    if (target == held->mode || compatible(target, group_without(e, txn))) {
      grant(e, txn, target);
      return LockReply{txn, agent, lock, target, true};
    }
    if (!may_wait(e, txn, target)) return LockReply{txn, agent, lock, held->mode, false, reason_for(policy_)};
    // Conversions wait ahead of new requests, in their own arrival order.
    const auto after_conversions =
        std::find_if(e.queue.begin(), e.queue.end(), [](const Waiter& w) { return !w.conversion; });
    e.queue.insert(after_conversions, {txn, agent, target, now_ns + timeout_ns_, true});
    pending_.insert(lock);
    return std::nullopt;
  }
  if (found == nullptr || (found->queue.empty() && compatible(mode, group_mode(found->granted)))) {
    Entry& e = found ? *found : find_or_create(lock);
    grant(e, txn, mode);
    locks_of(txn).push_back(lock);
    return LockReply{txn, agent, lock, mode, true};
  }
  if (!may_wait(*found, txn, mode)) return LockReply{txn, agent, lock, LockMode::NL, false, reason_for(policy_)};
  found->queue.push_back({txn, agent, mode, now_ns + timeout_ns_, false});
  locks_of(txn).push_back(lock);
  pending_.insert(lock);
  return std::nullopt;
}

void LockTable::grant_from_head(LockId lock, Entry& e, std::vector<LockReply>& out) {
  while (!e.queue.empty()) {
    const Waiter w = e.queue.front();
    const LockMode others = w.conversion ? group_without(e, w.txn) : group_mode(e.granted);
    if (!compatible(w.mode, others)) break;
    e.queue.erase(e.queue.begin());
    grant(e, w.txn, w.mode);
    out.push_back({w.txn, w.agent, lock, w.mode, true});
  }
  if (e.queue.empty()) pending_.erase(lock);
}

void LockTable::remove_holder_and_waits(Entry& e, TxnId txn) {
  if (Holder* h = holder_of(e, txn)) {
    --e.granted[static_cast<std::size_t>(index_of(h->mode))];
    e.holders.erase(e.holders.begin() + (h - e.holders.data()));
  }
  e.queue.erase(std::remove_if(e.queue.begin(), e.queue.end(), [&](const Waiter& w) { return w.txn == txn; }),
                e.queue.end());
}

std::vector<LockReply> LockTable::release_all(TxnId txn) {
  std::vector<LockReply> grants;
  const auto slot = txn_index_.find(txn);
  if (!slot) return grants;
  std::vector<LockId>& locks = txn_locks_[*slot];
  txn_index_.erase(txn);
  free_txn_slots_.push_back(*slot);
  std::sort(locks.begin(), locks.end());
  locks.erase(std::unique(locks.begin(), locks.end()), locks.end());
  for (LockId lock : locks) {
    Entry* e = find(lock);
    if (e == nullptr) continue;
    remove_holder_and_waits(*e, txn);
    grant_from_head(lock, *e, grants);
    drop_if_idle(lock, *e);
  }
  locks.clear();  // keeps its capacity for the slot's next transaction
  return grants;
}

std::vector<LockReply> LockTable::release(TxnId txn, LockId lock) {
  std::vector<LockReply> grants;
  Entry* e = find(lock);
  if (e == nullptr || holder_of(*e, txn) == nullptr) return grants;
  remove_holder_and_waits(*e, txn);  // also a conversion it still waited for
  forget_lock_of(txn, lock);
  grant_from_head(lock, *e, grants);
  drop_if_idle(lock, *e);
  return grants;
}

std::vector<LockReply> LockTable::expire(std::uint64_t now_ns) {
  std::vector<LockReply> replies;
  const std::vector<LockId> locks(pending_.begin(), pending_.end());
  for (LockId lock : locks) {
    Entry& e = *find(lock);
    bool removed = false;
    while (!e.queue.empty() && e.queue.front().deadline_ns <= now_ns) {
      const Waiter w = e.queue.front();
      e.queue.erase(e.queue.begin());
      removed = true;
      Holder* h = holder_of(e, w.txn);
      replies.push_back({w.txn, w.agent, lock, h ? h->mode : LockMode::NL, false, DenyReason::timeout});
      if (!w.conversion) forget_lock_of(w.txn, lock);
    }
    if (!removed) continue;
    grant_from_head(lock, e, replies);  // the new head may be grantable now
    if (e.queue.empty()) pending_.erase(lock);
    drop_if_idle(lock, e);
  }
  return replies;
}

LockMode LockTable::group(LockId lock) const {
  check_range(lock);
  const Entry* e = find(lock);
  return e ? group_mode(e->granted) : LockMode::NL;
}

LockMode LockTable::held_by(TxnId txn, LockId lock) const {
  const Entry* e = find(lock);
  if (e == nullptr) return LockMode::NL;
  for (const Holder& h : e->holders)
    if (h.txn == txn) return h.mode;
  return LockMode::NL;
}

std::size_t LockTable::waiting(LockId lock) const {
  const Entry* e = find(lock);
  return e ? e->queue.size() : 0;
}

}  // namespace hpcdb
