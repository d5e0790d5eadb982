#pragma once
// Everything that shapes a transaction run; parsed by `hpcdb txn`.
#include <cstdint>
#include <string>

#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/txn/agent_roles.hpp"
#include "hpcdb/txn/lock_table.hpp"

namespace hpcdb {

enum class IsolationLevel {
  serializable,    // strict 2PL: every lock held until the end
  read_committed,  // read locks (IS, S) released as soon as the read is done; write locks held to the end
};

std::string to_string(IsolationLevel level);
IsolationLevel parse_isolation_level(const std::string& text);
std::string to_string(DeadlockPolicy policy);
DeadlockPolicy parse_deadlock_policy(const std::string& text);

// The random stream of one agent: the run's seed spread by a golden-ratio
// multiplier, plus the agent's stream number.
constexpr std::uint64_t agent_rng_seed(std::uint64_t seed, std::uint64_t stream) {
  return seed * 0x9E3779B97F4A7C15ull + stream;
}

struct TxnEngineConfig {
  TransportKind transport = TransportKind::one_sided;
  int lock_agents = 1;
  AgentPlacement placement = AgentPlacement::spread;
  LockId locks_per_agent = 1 << 20;
  DeadlockPolicy policy = DeadlockPolicy::bounded_wait;
  std::uint64_t lock_timeout_ns = 100'000'000;
  IsolationLevel isolation = IsolationLevel::serializable;
  int locks_per_txn = 10;
  double remote_probability = 0;
  double duration_seconds = 5;
  std::uint64_t transactions_per_agent = 0;  // 0: run for duration_seconds
  std::uint64_t seed = 1;
  bool access_data = true;
  bool record_history = false;
  double vote_no_probability = 0;            // fault injection: a participant votes no
  std::uint64_t vote_timeout_ns = 100'000'000;
  std::uint64_t reply_timeout_ns = 10'000'000'000;
  int calibration_pings = 2000;
  int fail_rank = -1;                        // fault injection: this rank kills itself...
  double fail_after_seconds = 0;             // ... this long after the run starts
  bool fail_hangs = false;                   // ... or stops answering instead
};

}  // namespace hpcdb
