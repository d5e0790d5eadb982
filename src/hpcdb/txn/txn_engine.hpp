#pragma once
// One transaction run over the whole job: assigns lock-agent and
// transaction-agent roles, opens the transport and the record windows, runs
// each rank's agent, and gathers the counts and timings (and, when asked,
// checks the recorded history) at rank 0.
#include <mpi.h>

#include <optional>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/txn/serializability_checker.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_metrics.hpp"

namespace hpcdb {

struct TxnRunResult {
  TxnMetrics metrics;  // summed over ranks; seconds = the transaction agents' longest run
  int ranks = 0;
  int lock_agents = 0;
  int txn_agents = 0;
  int nodes = 0;
  std::optional<HistoryCheck> check;  // with record_history
};

// Collective; the result is complete on rank 0 only.
TxnRunResult run_txn_engine(const Cluster& cluster, const TxnEngineConfig& config);

}  // namespace hpcdb
