#pragma once
// What committed transactions read and wrote, for checking after a run that
// the execution was serializable: each read names the version it saw (the
// writing transaction, 0 for the initial value), each write the version it
// replaced and whether it updated, inserted or deleted the row; a range read
// names a key range that the transaction read as a whole (a scan), so that a
// row inserted into or deleted from the range by another transaction is a
// conflict too (a predicate read). The lock agents record how they voted in
// 2PC and what they were told to do.
#include <cstdint>
#include <vector>

#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb {

struct RecordVersion {
  LockId record = 0;
  TxnId version = 0;
};

// A row's presence before and after a write: an update keeps it, an insert
// makes an absent row present, a delete (remove) makes it absent.
enum class WriteKind : std::uint8_t { update = 0, insert = 1, remove = 2 };

struct RecordWrite {
  LockId record = 0;
  TxnId version = 0;  // the version it replaced
  WriteKind kind = WriteKind::update;
};

// The records [first, last] (lock ids of one table in one partition) read as
// a whole: each row in it that the transaction did not note as read was absent to it.
struct LockRange {
  LockId first = 0;
  LockId last = 0;
};

struct CommittedTxn {
  TxnId id = 0;
  std::vector<RecordVersion> reads;   // version seen
  std::vector<RecordWrite> writes;    // version overwritten
  std::vector<LockRange> range_reads;  // scanned ranges
};

// A 2PC participant's vote on one attempt and the decision it then received.
struct ParticipantVote {
  TxnId txn = 0;
  int agent = 0;  // the lock agent's world rank
  bool voted_yes = false;
  bool told_to_commit = false;
};

// Flat encodings for gathering over ranks.
void append_encoded(const CommittedTxn& txn, std::vector<std::uint64_t>& out);
std::vector<CommittedTxn> decode_history(const std::vector<std::uint64_t>& words);
void append_encoded(const ParticipantVote& vote, std::vector<std::uint64_t>& out);
std::vector<ParticipantVote> decode_votes(const std::vector<std::uint64_t>& words);

}  // namespace hpcdb
