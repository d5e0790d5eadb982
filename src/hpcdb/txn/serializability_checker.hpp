#pragma once
// Checks a recorded history of committed transactions (txn_history.hpp).
//
// Because every write replaces a named version, the versions of each record
// form a chain; the checker verifies that no committed transaction read a
// version that was never committed (dirty or aborted read), that no two
// committed transactions overwrote the same version (lost update), and that
// the records' final versions are the ends of their chains. For
// serializability it then builds the serialization graph (write->write,
// write->read, read->next write) and requires it to be acyclic.
#include <cstddef>
#include <string>
#include <vector>

#include "hpcdb/txn/txn_history.hpp"

namespace hpcdb {

struct HistoryCheck {
  bool ok = true;
  std::string problem;  // the first violation found, for a person to read
  std::size_t transactions = 0;
  std::size_t edges = 0;
};

// `final_versions`: every record whose final version is not 0.
// `require_serializable`: false checks only what read committed promises.
HistoryCheck check_history(const std::vector<CommittedTxn>& history,
                           const std::vector<RecordVersion>& final_versions, bool require_serializable);

}  // namespace hpcdb
