#pragma once
// One transaction run over the whole job: assigns lock-agent and
// transaction-agent roles, builds the workload and its lock space, opens the
// transport and the data windows, has the lock agents load their partitions,
// runs each rank's agent, and gathers the counts and timings (and, when
// asked, the history check and the workload's consistency conditions) at rank 0.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/txn/serializability_checker.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_metrics.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

struct TxnRunResult {
  TxnMetrics metrics;  // summed over ranks; seconds = the transaction agents' longest run
  int ranks = 0;
  int lock_agents = 0;
  int txn_agents = 0;
  int nodes = 0;
  std::uint32_t partitions = 0;
  std::vector<std::string> type_names;
  double load_seconds = 0;                          // the lock agents loading their data (slowest)
  std::optional<HistoryCheck> check;                // with record_history
  std::optional<std::vector<ConditionResult>> conditions;  // with record_history, if the workload has any
  bool ok() const;                                  // every check that ran passed
  // The checks that failed, named for a person: "history check (serializability)", "consistency condition 4", ...
  std::vector<std::string> failed_checks() const;
};

// Collective; the result is complete on rank 0 only.
TxnRunResult run_txn_engine(const Cluster& cluster, const TxnEngineConfig& config);

}  // namespace hpcdb
