#include "hpcdb/txn/transaction.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

Transaction::Transaction(LockChannel& channel, DataAccess& data, const LockSpace& space, TransactionSettings settings,
                         TxnMetrics& metrics)
    : channel_(channel), data_(data), space_(space), settings_(settings), metrics_(metrics) {
  held_.reserve(1024);
  undo_.reserve(256);
  undo_bytes_.reserve(1 << 16);
}

void Transaction::forget_held() {
  for (const Held& h : held_) held_index_.erase(h.lock);
  held_.clear();
}

void Transaction::begin(TxnId id) {
  id_ = id;
  forget_held();
  contacted_.clear();
  writers_.clear();
  undo_.clear();
  undo_bytes_.clear();
  history_.id = id;
  history_.reads.clear();
  history_.writes.clear();
  history_.range_reads.clear();
  grants_.clear();
  summary_ = AttemptSummary{};
  released_early_ = false;
}

void Transaction::note_contact(int agent) {
  if (std::find(contacted_.begin(), contacted_.end(), agent) == contacted_.end()) contacted_.push_back(agent);
}

LockMode Transaction::held(LockId lock) const {
  const auto at = held_index_.find(lock);
  return at ? held_[*at].mode : LockMode::NL;
}

bool Transaction::lock(LockId lock, LockMode mode) {
  const auto at = held_index_.find(lock);
  const LockMode before = at ? held_[*at].mode : LockMode::NL;
  if (supremum(before, mode) == before) return false;
  const int owner = space_.owner_of(lock);
  note_contact(owner);
  const std::uint64_t t0 = monotonic_ns();
  const LockAnswer answer = channel_.acquire(owner, id_, lock, mode);
  const std::uint64_t took = monotonic_ns() - t0;
  metrics_.round_trip.add(took);
  ++metrics_.counters.lock_requests;
  ++summary_.lock_requests;
  summary_.locking_ns += took;
  if (!answer.granted) throw AttemptAborted(answer.reason);
  if (at) {
    held_[*at].mode = answer.mode;
  } else {
    held_index_.insert(lock, static_cast<std::uint32_t>(held_.size()));
    held_.push_back({lock, answer.mode});
  }
  if (settings_.record_grants) grants_.push_back({lock, answer.mode});
  return true;
}

void Transaction::unlock(LockId lock) {
  const auto at = held_index_.find(lock);
  if (!at || held_[*at].mode == LockMode::NL) throw Error("a transaction released a lock it does not hold");
  const std::uint64_t t0 = monotonic_ns();
  channel_.release(space_.owner_of(lock), id_, lock);
  summary_.locking_ns += monotonic_ns() - t0;
  held_[*at].mode = LockMode::NL;
  ++summary_.early_releases;
}

void Transaction::read(DataRef at, void* into, std::size_t bytes) {
  data_.get(at, into, bytes);
  ++metrics_.counters.record_reads;
}

void Transaction::write(DataRef at, const void* from, std::size_t bytes) {
  const std::size_t saved = undo_bytes_.size();
  undo_bytes_.resize(saved + bytes);
  data_.get(at, undo_bytes_.data() + saved, bytes);
  undo_.push_back({at, static_cast<std::uint32_t>(bytes), saved});
  data_.put(at, from, bytes);
  ++metrics_.counters.record_writes;
}

void Transaction::apply_undo() {
  if (settings_.fault != TestingFault::skip_undo) {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) data_.put(it->at, undo_bytes_.data() + it->saved, it->bytes);
  }
  data_.complete();
  if (!undo_.empty()) ++metrics_.counters.rollbacks;
  undo_.clear();
  undo_bytes_.clear();
}

// As the end of the transaction does at every lock agent it contacted, but
// before the outcome is decided and carried out.
void Transaction::release_all_early() {
  if (released_early_) return;
  released_early_ = true;
  channel_.end(id_, contacted_, true);
  for (Held& h : held_) h.mode = LockMode::NL;
}

bool Transaction::commit() {
  data_.complete();
  writers_.clear();
  for (const Held& h : held_) {
    if (h.mode != LockMode::X) continue;
    const int owner = space_.owner_of(h.lock);
    if (std::find(writers_.begin(), writers_.end(), owner) == writers_.end()) writers_.push_back(owner);
  }
  summary_.agents = contacted_.size();
  if (settings_.fault == TestingFault::early_release) release_all_early();
  if (writers_.size() > 1) {
    summary_.two_phase_commit = true;
    ++metrics_.counters.votes;
    const std::uint64_t t0 = monotonic_ns();
    const bool yes = channel_.vote(id_, writers_);
    summary_.vote_ns = monotonic_ns() - t0;
    metrics_.vote.add(summary_.vote_ns);
    if (!yes && settings_.fault != TestingFault::ignore_no_vote) {
      roll_back();
      return false;
    }
  }
  const std::uint64_t t0 = monotonic_ns();
  channel_.end(id_, contacted_, true);
  summary_.end_ns += monotonic_ns() - t0;
  return true;
}

void Transaction::roll_back() {
  const std::uint64_t t0 = monotonic_ns();
  if (settings_.fault == TestingFault::early_release) release_all_early();
  apply_undo();
  channel_.end(id_, contacted_, false);
  summary_.agents = contacted_.size();
  summary_.end_ns += monotonic_ns() - t0;
}

}  // namespace hpcdb
