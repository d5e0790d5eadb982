#pragma once
// `hpcdb txn`: runs transactions through the distributed lock manager
// (strict 2PL with 2PC) and reports throughput, aborts and latencies next
// to the lock-manager model (thesis Eqs. 5.1-5.4).
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/txn/txn_config.hpp"

namespace hpcdb {

struct TxnOptions {
  std::string workload = "synthetic";
  std::string transport = "one-sided";
  int lock_agents = 1;
  std::string placement = "spread";
  std::string locks_per_agent = "1M";
  std::string cc = "bounded-wait";
  double lock_timeout_ms = 100;
  std::string isolation = "serializable";
  int locks_per_txn = 10;
  std::uint32_t warehouses = 0;
  std::string mix = "standard";
  std::string order_capacity = "0";
  std::string trace_out;
  std::string trace_dir;
  double remote_probability = 0;
  double duration = 5;
  std::string transactions = "0";
  int retries = 10;
  double backoff_ms = 0.05;
  std::uint64_t seed = 1;
  bool no_data = false;
  bool check = false;
  double vote_no_probability = 0;
  double vote_timeout_ms = 100;
  double reply_timeout_s = 5;
  int pings = 2000;
  int fail_rank = -1;
  double fail_after = 1;
  std::string fail_how = "kill";
  std::string fail_during = "run";
  std::string json;
};

void add_txn_options(CLI::App& txn, TxnOptions& options);
TxnEngineConfig resolve(const TxnOptions& options);  // throws UsageError
int run_txn_command(const Cluster& cluster, const TxnOptions& options);

}  // namespace hpcdb
