#pragma once
// Checks a recorded history of committed transactions (txn_history.hpp).
//
// Because every write replaces a named version, the versions of each record
// form a chain, each version present (inserted or updated) or absent (never
// inserted, or deleted). The checker verifies, in this order, and reports the
// first violation it finds, prefixed with the name of the check:
//  - 2PC atomic commitment: no participant voted no on an attempt it was then
//    told to commit;
//  - dirty write: every replaced version was committed (by a transaction that
//    wrote that record), and inserts replaced absent versions, updates and
//    deletes present ones (row presence);
//  - lost update: no two committed transactions replaced the same version;
//  - dirty read: every version read was committed by a writer of that record;
//  - final state: the records end in the last versions of their chains;
//  - serializability (unless only read committed is promised): the
//    serialization graph is acyclic. Its edges: write -> write, write -> read,
//    read -> the next write, and for each range read, for every record in the
//    range the reader did not note as read (so it saw it absent), the same two
//    edges around the version it saw: the writer of that absent version (a
//    delete) -> the reader, and the reader -> the next writer (an insert it
//    missed: a phantom). Where a record's chain has several absent versions
//    (inserted and deleted again) the one a range read saw is ambiguous and
//    adds no edge; of the deletes a range read saw, only the 8 nearest its
//    end add edges (the graph stays linear in the run's length; a left-out
//    edge can hide a cycle, never make one).
// A cycle is reported with its transactions and, for each edge, the record
// or range and why the order is forced.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "hpcdb/txn/txn_history.hpp"

namespace hpcdb {

struct HistoryCheck {
  bool ok = true;
  std::string problem;  // the first violation found, for a person to read
  std::size_t transactions = 0;
  std::size_t edges = 0;
  std::size_t range_edges = 0;  // of the edges, those from range reads
};

// How a message names a record (a workload knows its tables); the default
// names the lock id's partition, table and key: "p0/t5/k16779441".
using RecordNamer = std::function<std::string(LockId)>;
std::string lock_id_name(LockId record);

// `final_versions`: every record whose final version is not 0.
// `require_serializable`: false checks only what read committed promises.
// `votes`: the 2PC participants' log (empty: not checked).
HistoryCheck check_history(const std::vector<CommittedTxn>& history,
                           const std::vector<RecordVersion>& final_versions, bool require_serializable,
                           const std::vector<ParticipantVote>& votes = {}, const RecordNamer& name = lock_id_name);

}  // namespace hpcdb
