#include "hpcdb/txn/lock_table.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

LockTable::LockTable(LockId first, LockId count, DeadlockPolicy policy, std::uint64_t timeout_ns)
    : first_(first), policy_(policy), timeout_ns_(timeout_ns), entries_(count) {}

LockTable::Entry& LockTable::entry(LockId lock) {
  if (lock < first_ || lock - first_ >= entries_.size()) {
    throw Error("lock " + std::to_string(lock) + " is not managed by this lock agent");
  }
  return entries_[lock - first_];
}

const LockTable::Entry& LockTable::entry(LockId lock) const { return const_cast<LockTable*>(this)->entry(lock); }

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
  Entry& e = entry(lock);
  Holder* held = holder_of(e, txn);
  if (mode == LockMode::NL) return LockReply{txn, agent, lock, held ? held->mode : LockMode::NL, true};
  auto& locks = txn_locks_[txn];
  if (locks.capacity() == 0) locks.reserve(16);  // one allocation per transaction, not one per doubling
  if (held != nullptr) {
    const LockMode target = supremum(held->mode, mode);
    if (target == held->mode || compatible(target, group_without(e, txn))) {
      grant(e, txn, target);
      return LockReply{txn, agent, lock, target, true};
    }
    if (!may_wait(e, txn, target)) return LockReply{txn, agent, lock, held->mode, false};
    // Conversions wait ahead of new requests, in their own arrival order.
    const auto after_conversions =
        std::find_if(e.queue.begin(), e.queue.end(), [](const Waiter& w) { return !w.conversion; });
    e.queue.insert(after_conversions, {txn, agent, target, now_ns + timeout_ns_, true});
    pending_.insert(lock);
    return std::nullopt;
  }
  if (e.queue.empty() && compatible(mode, group_mode(e.granted))) {
    grant(e, txn, mode);
    locks.push_back(lock);
    return LockReply{txn, agent, lock, mode, true};
  }
  if (!may_wait(e, txn, mode)) {
    if (locks.empty()) txn_locks_.erase(txn);
    return LockReply{txn, agent, lock, LockMode::NL, false};
  }
  e.queue.push_back({txn, agent, mode, now_ns + timeout_ns_, false});
  locks.push_back(lock);
  pending_.insert(lock);
  return std::nullopt;
}

void LockTable::grant_from_head(LockId lock, std::vector<LockReply>& out) {
  Entry& e = entry(lock);
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

std::vector<LockReply> LockTable::release_all(TxnId txn) {
  std::vector<LockReply> grants;
  const auto found = txn_locks_.find(txn);
  if (found == txn_locks_.end()) return grants;
  std::vector<LockId> locks = std::move(found->second);
  txn_locks_.erase(found);
  std::sort(locks.begin(), locks.end());
  locks.erase(std::unique(locks.begin(), locks.end()), locks.end());
  for (LockId lock : locks) {
    Entry& e = entry(lock);
    if (Holder* h = holder_of(e, txn)) {
      --e.granted[static_cast<std::size_t>(index_of(h->mode))];
      e.holders.erase(e.holders.begin() + (h - e.holders.data()));
    }
    e.queue.erase(std::remove_if(e.queue.begin(), e.queue.end(), [&](const Waiter& w) { return w.txn == txn; }),
                  e.queue.end());
    grant_from_head(lock, grants);
  }
  return grants;
}

std::vector<LockReply> LockTable::release(TxnId txn, LockId lock) {
  std::vector<LockReply> grants;
  Entry& e = entry(lock);
  Holder* h = holder_of(e, txn);
  if (h == nullptr) return grants;
  --e.granted[static_cast<std::size_t>(index_of(h->mode))];
  e.holders.erase(e.holders.begin() + (h - e.holders.data()));
  e.queue.erase(std::remove_if(e.queue.begin(), e.queue.end(), [&](const Waiter& w) { return w.txn == txn; }),
                e.queue.end());  // a conversion it still waited for
  const auto found = txn_locks_.find(txn);
  if (found != txn_locks_.end()) {
    auto& locks = found->second;
    locks.erase(std::remove(locks.begin(), locks.end(), lock), locks.end());
    if (locks.empty()) txn_locks_.erase(found);
  }
  grant_from_head(lock, grants);
  return grants;
}

std::vector<LockReply> LockTable::expire(std::uint64_t now_ns) {
  std::vector<LockReply> replies;
  const std::vector<LockId> locks(pending_.begin(), pending_.end());
  for (LockId lock : locks) {
    Entry& e = entry(lock);
    bool removed = false;
    while (!e.queue.empty() && e.queue.front().deadline_ns <= now_ns) {
      const Waiter w = e.queue.front();
      e.queue.erase(e.queue.begin());
      removed = true;
      Holder* h = holder_of(e, w.txn);
      replies.push_back({w.txn, w.agent, lock, h ? h->mode : LockMode::NL, false});
      if (!w.conversion) {
        auto& held = txn_locks_[w.txn];
        held.erase(std::find(held.begin(), held.end(), lock));
        if (held.empty()) txn_locks_.erase(w.txn);
      }
    }
    if (removed) grant_from_head(lock, replies);  // the new head may be grantable now
  }
  return replies;
}

LockMode LockTable::group(LockId lock) const { return group_mode(entry(lock).granted); }

LockMode LockTable::held_by(TxnId txn, LockId lock) const {
  for (const Holder& h : entry(lock).holders)
    if (h.txn == txn) return h.mode;
  return LockMode::NL;
}

std::size_t LockTable::waiting(LockId lock) const { return entry(lock).queue.size(); }

}  // namespace hpcdb
