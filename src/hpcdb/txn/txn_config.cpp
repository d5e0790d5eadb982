#include "hpcdb/txn/txn_config.hpp"

#include "hpcdb/core/error.hpp"

namespace hpcdb {

std::string to_string(IsolationLevel level) {
  return level == IsolationLevel::serializable ? "serializable" : "read-committed";
}

IsolationLevel parse_isolation_level(const std::string& text) {
  if (text == "serializable") return IsolationLevel::serializable;
  if (text == "read-committed") return IsolationLevel::read_committed;
  throw UsageError("unknown isolation level '" + text + "' (use serializable or read-committed)");
}

std::string to_string(DeadlockPolicy policy) {
  switch (policy) {
    case DeadlockPolicy::bounded_wait:
      return "bounded-wait";
    case DeadlockPolicy::no_wait:
      return "no-wait";
    case DeadlockPolicy::wait_die:
      return "wait-die";
  }
  return "?";
}

DeadlockPolicy parse_deadlock_policy(const std::string& text) {
  if (text == "bounded-wait") return DeadlockPolicy::bounded_wait;
  if (text == "no-wait") return DeadlockPolicy::no_wait;
  if (text == "wait-die") return DeadlockPolicy::wait_die;
  throw UsageError("unknown concurrency control '" + text + "' (use bounded-wait, no-wait or wait-die)");
}

}  // namespace hpcdb
