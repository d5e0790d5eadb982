#pragma once
// Everything that shapes a transaction run; parsed by `hpcdb txn`.
#include <cstdint>
#include <string>

#include "hpcdb/core/injected_failure.hpp"
#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/agent_roles.hpp"
#include "hpcdb/txn/lock_table.hpp"

namespace hpcdb {

enum class IsolationLevel {
  serializable,    // strict 2PL: every lock held until the end
  read_committed,  // read locks (IS, S) released as soon as the read is done; write locks held to the end
};

enum class WorkloadKind {
  synthetic,  // the thesis's: N locks per transaction, uniform modes (txn/synthetic/)
  tpcc,       // TPC-C's five transactions on its nine tables (txn/tpcc/)
  trace,      // replays lock traces without data access (txn/trace/)
};

enum class TpccMix {
  standard,  // 45/43/4/4/4 (New-Order, Payment, Order-Status, Delivery, Stock-Level)
  trace,     // 10:10:1:1:1, the deck behind the thesis's lock traces
};

// Where the rank named by --fail-rank fails: the start-up (before the data
// is loaded), the run (--fail-after seconds in) or the finish (before the
// results are gathered).
enum class FailurePoint { start_up, run, finish };

std::string to_string(IsolationLevel level);
IsolationLevel parse_isolation_level(const std::string& text);
std::string to_string(DeadlockPolicy policy);
DeadlockPolicy parse_deadlock_policy(const std::string& text);
std::string to_string(WorkloadKind kind);
WorkloadKind parse_workload_kind(const std::string& text);
std::string to_string(TpccMix mix);
TpccMix parse_tpcc_mix(const std::string& text);
FailurePoint parse_failure_point(const std::string& text);
// The failure points as InjectedFailure names them (the run's is by time: none).
inline constexpr const char* kStartUp = "start-up";
inline constexpr const char* kFinish = "finish";
std::string failure_point_name(FailurePoint point);

// The random stream of one agent: the run's seed spread by a golden-ratio
// multiplier, plus the agent's stream number.
constexpr std::uint64_t agent_rng_seed(std::uint64_t seed, std::uint64_t stream) {
  return seed * 0x9E3779B97F4A7C15ull + stream;
}

struct TxnEngineConfig {
  TransportKind transport = TransportKind::one_sided;
  int lock_agents = 1;
  AgentPlacement placement = AgentPlacement::spread;
  DeadlockPolicy policy = DeadlockPolicy::bounded_wait;
  std::uint64_t lock_timeout_ns = 100'000'000;
  IsolationLevel isolation = IsolationLevel::serializable;
  WorkloadKind workload = WorkloadKind::synthetic;
  // synthetic
  std::uint64_t locks_per_agent = 1 << 20;
  int locks_per_txn = 10;
  double remote_probability = 0;
  // tpcc
  std::uint32_t warehouses = 0;          // 0: one per lock agent
  TpccMix mix = TpccMix::standard;
  std::uint64_t order_capacity = 0;      // new orders per district the append areas hold; 0: sized from the run
  double remote_item_probability = 0.01;      // New-Order: an item supplied by another warehouse
  double remote_customer_probability = 0.15;  // Payment: the customer belongs to another warehouse
  // trace
  std::string trace_dir;                 // replay the lock traces in this directory
  std::string trace_out_dir;             // write each warehouse's granted locks here
  // the run
  double duration_seconds = 5;
  std::uint64_t transactions_per_agent = 0;  // 0: run for duration_seconds
  int retries = 10;                          // attempts after the first for an aborted transaction
  std::uint64_t backoff_ns = 50'000;         // first retry's mean pause; doubles per attempt
  std::uint64_t seed = 1;
  bool access_data = true;
  bool record_history = false;               // --check: history and consistency conditions
  double vote_no_probability = 0;            // fault injection: a participant votes no
  std::uint64_t vote_timeout_ns = 100'000'000;
  std::uint64_t reply_timeout_ns = 10'000'000'000;
  int calibration_pings = 2000;
  // Fault injection: a rank that fails at kStartUp (before the data is
  // loaded), at kFinish (before the results are gathered), or, with no point
  // named, this long into the run.
  InjectedFailure failure;
};

}  // namespace hpcdb
