#include "hpcdb/txn/testing_fault.hpp"

#include "hpcdb/core/named_values.hpp"

namespace hpcdb {

namespace {
constexpr NamedValues<TestingFault, 5> kFaultNames{{{TestingFault::none, "none"},
                                                    {TestingFault::early_release, "early-release"},
                                                    {TestingFault::skip_undo, "skip-undo"},
                                                    {TestingFault::ignore_no_vote, "ignore-no-vote"},
                                                    {TestingFault::no_next_key_lock, "no-next-key-lock"}}};
}  // namespace

std::string to_string(TestingFault fault) { return name_of(fault, kFaultNames); }

TestingFault parse_testing_fault(const std::string& text) { return value_named(text, kFaultNames, "testing fault"); }

std::string testing_fault_help() {
  return "Testing aid: break the engine on purpose, to see --check catch it: early-release (a transaction releases "
         "its locks before the 2PC vote or the undo of a roll back), skip-undo (a roll back leaves its writes), "
         "ignore-no-vote (2PC commits although a participant voted no), no-next-key-lock (range reads, inserts and "
         "deletes take no next-key locks: phantoms). Under a fault, --homes defaults to all (the transaction agents "
         "share every warehouse, so that they conflict)";
}

}  // namespace hpcdb
