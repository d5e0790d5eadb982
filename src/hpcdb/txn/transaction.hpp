#pragma once
// One transaction in flight, as a transaction program sees it: locks taken
// one by one (each blocks for the lock agent's answer; a denial unwinds the
// attempt with AttemptAborted), one-sided reads and writes of the data the
// locks guard, and the end: commit (with 2PC when it holds exclusive locks at
// more than one lock agent) or roll back.
//
// Every write first saves the bytes it replaces in the transaction's undo
// log, so a roll back (a denied lock, a NO vote, or the program's own
// decision) restores them, in reverse order, while the transaction still
// holds its locks. Inserts and deletes are writes too: of the row and of the
// structure words (append tails, queue heads, index entries) that make it
// visible, so the same log undoes them.
#include <cstdint>
#include <vector>

#include "hpcdb/txn/data_access.hpp"
#include "hpcdb/txn/id_slot_map.hpp"
#include "hpcdb/txn/lock_channel.hpp"
#include "hpcdb/txn/lock_space.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_history.hpp"
#include "hpcdb/txn/txn_metrics.hpp"

namespace hpcdb {

// Thrown out of a program when one of its locks is denied.
class AttemptAborted {
 public:
  explicit AttemptAborted(DenyReason reason) : reason_(reason) {}
  DenyReason reason() const { return reason_; }

 private:
  DenyReason reason_;
};

struct GrantedLock {
  LockId lock;
  LockMode mode;  // held after the grant
};

// What one attempt did, for the metrics.
struct AttemptSummary {
  std::uint64_t lock_requests = 0;  // requests sent (locks already held in a covering mode are not asked again)
  std::uint64_t early_releases = 0; // of those, released before the end (short read locks, instant locks)
  std::uint64_t agents = 0;         // lock agents contacted
  bool two_phase_commit = false;
  std::uint64_t locking_ns = 0;     // waiting for lock replies (and sending releases)
  std::uint64_t vote_ns = 0;        // 2PC phase 1
  std::uint64_t end_ns = 0;         // undo (if any) and the decision messages
};

struct TransactionSettings {
  IsolationLevel isolation = IsolationLevel::serializable;
  bool record_history = false;  // reads and writes with versions, for the history check
  bool record_grants = false;   // every granted lock, for lock traces
  TestingFault fault = TestingFault::none;  // testing aid: the engine bug to put in (testing_fault.hpp)
};

class Transaction {
 public:
  Transaction(LockChannel& channel, DataAccess& data, const LockSpace& space, TransactionSettings settings,
              TxnMetrics& metrics);

  void begin(TxnId id);
  TxnId id() const { return id_; }
  IsolationLevel isolation() const { return settings_.isolation; }
  bool serializable() const { return settings_.isolation == IsolationLevel::serializable; }
  // Whether range reads, inserts and deletes protect key ranges with next-key
  // locks: under serializable, unless the testing fault no-next-key-lock is in.
  bool next_key_locking() const { return serializable() && settings_.fault != TestingFault::no_next_key_lock; }
  // Whether a key range that must not change under a reader is locked at
  // all (at any isolation): not under the testing fault no-next-key-lock.
  bool key_range_locking() const { return settings_.fault != TestingFault::no_next_key_lock; }

  // Asks for `mode` on `lock` unless a lock held already covers it; returns
  // whether it asked. Throws AttemptAborted when denied.
  bool lock(LockId lock, LockMode mode);
  // Releases a held lock before the end.
  void unlock(LockId lock);
  LockMode held(LockId lock) const;

  void read(DataRef at, void* into, std::size_t bytes);
  void write(DataRef at, const void* from, std::size_t bytes);
  template <class T>
  T read(DataRef at) {
    T value;
    read(at, &value, sizeof value);
    return value;
  }
  template <class T>
  void write(DataRef at, const T& value) {
    write(at, &value, sizeof value);
  }
  // An aligned 8-byte word read without a lock (e.g. a queue head), for a
  // program to decide which lock to take; it must read again under the lock.
  std::uint64_t peek_word(DataRef at) { return data_.load_word(at); }
  bool data_enabled() const { return data_.enabled(); }

  const LockSpace& space() const { return space_; }

  // The history check's record of what this transaction read and replaced
  // (its own earlier writes are not noted again), and of the key ranges it
  // read as a whole (a scan: every row in the range that it did not note as
  // read was absent to it).
  bool recording_history() const { return settings_.record_history; }
  void note_read(LockId record, TxnId version) {
    if (version != id_) history_.reads.push_back({record, version});
  }
  void note_write(LockId record, TxnId replaced, WriteKind kind = WriteKind::update) {
    if (replaced != id_) history_.writes.push_back({record, replaced, kind});
  }
  void note_range_read(LockId first, LockId last) { history_.range_reads.push_back({first, last}); }

  // Commits: 2PC among the lock agents where it holds X locks when there is
  // more than one; a NO (or a silent participant) rolls it back. Returns
  // whether it committed.
  bool commit();
  // Undoes every write and tells every lock agent contacted that it aborted.
  void roll_back();

  const AttemptSummary& summary() const { return summary_; }
  const CommittedTxn& history() const { return history_; }
  const std::vector<GrantedLock>& grants() const { return grants_; }

 private:
  struct Held {
    LockId lock;
    LockMode mode;
  };
  struct UndoRecord {
    DataRef at;
    std::uint32_t bytes;
    std::size_t saved;  // offset in undo_bytes_
  };

  void note_contact(int agent);
  void forget_held();
  void apply_undo();
  void release_all_early();  // the testing fault early-release

  LockChannel& channel_;
  DataAccess& data_;
  const LockSpace& space_;
  TransactionSettings settings_;
  TxnMetrics& metrics_;
  TxnId id_ = 0;

  IdSlotMap held_index_;        // lock -> position in held_
  std::vector<Held> held_;      // mode NL once released
  std::vector<int> contacted_;  // lock agents (world ranks)
  std::vector<int> writers_;
  std::vector<UndoRecord> undo_;
  std::vector<std::byte> undo_bytes_;
  CommittedTxn history_;
  std::vector<GrantedLock> grants_;
  AttemptSummary summary_;
  bool released_early_ = false;  // the testing fault early-release did, in this attempt
};

}  // namespace hpcdb
