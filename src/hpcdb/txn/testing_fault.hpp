#pragma once
// Testing aid: one engine bug put in on purpose (`hpcdb txn --testing-fault
// NAME`), so that a run with --check shows that the checks catch it. Each
// fault breaks one rule that the engine's correctness rests on:
//  - early_release: a transaction releases its locks before its outcome is
//    carried out: before the 2PC vote of a commit, before the undo of a roll
//    back (a participant that no longer knows the transaction votes no);
//  - skip_undo: a transaction that rolls back leaves its writes in place;
//  - ignore_no_vote: the 2PC coordinator commits although a participant voted no;
//  - no_next_key_lock: range reads, inserts and deletes take no next-key
//    locks (and Deliveries leave the new-order queue's head unlocked), so a
//    scan can miss an insert or pass a delete that has not committed yet
//    (phantoms).
// The fault is a value of the engine's config, read by the parts it breaks
// (the transaction's end, the TPC-C programs' key-range locks). Its defaults
// (testing_fault_defaults) make the anomaly near certain: transaction agents
// that share every warehouse, so that they conflict on its rows.
#include <string>

namespace hpcdb {

enum class TestingFault { none, early_release, skip_undo, ignore_no_vote, no_next_key_lock };

std::string to_string(TestingFault fault);
TestingFault parse_testing_fault(const std::string& text);  // throws UsageError listing the names

// The --help text: every fault with what it breaks.
std::string testing_fault_help();

}  // namespace hpcdb
