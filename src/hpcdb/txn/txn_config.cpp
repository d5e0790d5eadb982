#include "hpcdb/txn/txn_config.hpp"

#include "hpcdb/core/named_values.hpp"

namespace hpcdb {

namespace {
constexpr NamedValues<IsolationLevel, 2> kIsolationNames{
    {{IsolationLevel::serializable, "serializable"}, {IsolationLevel::read_committed, "read-committed"}}};
constexpr NamedValues<DeadlockPolicy, 3> kPolicyNames{{{DeadlockPolicy::bounded_wait, "bounded-wait"},
                                                       {DeadlockPolicy::no_wait, "no-wait"},
                                                       {DeadlockPolicy::wait_die, "wait-die"}}};
}  // namespace

std::string to_string(IsolationLevel level) { return name_of(level, kIsolationNames); }

IsolationLevel parse_isolation_level(const std::string& text) {
  return value_named(text, kIsolationNames, "isolation level");
}

std::string to_string(DeadlockPolicy policy) { return name_of(policy, kPolicyNames); }

DeadlockPolicy parse_deadlock_policy(const std::string& text) {
  return value_named(text, kPolicyNames, "concurrency control");
}

}  // namespace hpcdb
