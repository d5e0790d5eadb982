#pragma once
// Library entry point: a run of transactions through the distributed lock
// manager (strict 2PL with 2PC) over the whole job, watched so that no rank
// waits forever for a peer that stopped, with the history and the
// workload's consistency conditions checked when asked.
#include <string>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/txn/txn_config.hpp"
#include "hpcdb/txn/txn_engine.hpp"

namespace hpcdb {

struct TxnRequest {
  TxnEngineConfig engine;
  std::string report_file;  // a file the caller writes afterwards ("-": standard output), checked first
};

// Throws UsageError for a request that cannot run on `ranks` ranks.
void validate(const TxnRequest& request, int ranks);

// Collective; the result is complete on rank 0 only (TxnRunResult::ok()
// says whether every check passed).
TxnRunResult run_transactions(const Cluster& cluster, const TxnRequest& request);

}  // namespace hpcdb
