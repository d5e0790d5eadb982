// TPC-C runs of the whole engine under contention: several transaction agents
// on one warehouse, every deadlock policy, both isolation levels, remote
// warehouses at other lock agents (2PC) and injected no votes. After each run
// TPC-C's consistency conditions 1-4 and the recorded history must check out.
#include <gtest/gtest.h>

#include <string>

#include "hpcdb/txn/tpcc/tpcc_mix.hpp"
#include "hpcdb/txn/txn_engine.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
namespace {

TxnEngineConfig tpcc_config(int lock_agents, std::uint32_t warehouses) {
  TxnEngineConfig config;
  config.workload = WorkloadKind::tpcc;
  config.lock_agents = lock_agents;
  config.warehouses = warehouses;
  config.order_capacity = 300;
  config.transactions_per_agent = 40;
  config.lock_timeout_ns = 2'000'000;
  config.backoff_ns = 20'000;
  config.record_history = true;
  config.calibration_pings = 10;
  return config;
}

TxnRunResult expect_checked(const TxnEngineConfig& config, const std::string& label) {
  const TxnRunResult r = run_txn_engine(cluster(), config);
  if (cluster().rank() != 0) return r;
  const TxnCounters& n = r.metrics.counters;
  EXPECT_EQ(n.committed + n.rolled_back + n.given_up,
            config.transactions_per_agent * static_cast<std::uint64_t>(r.txn_agents))
      << label;
  EXPECT_GT(n.committed, 0u) << label;
  EXPECT_EQ(r.type_names.size(), 5u);
  EXPECT_TRUE(r.check.has_value()) << label;
  if (r.check) {
    EXPECT_TRUE(r.check->ok) << label << ": " << r.check->problem;
    EXPECT_EQ(r.check->transactions, n.committed) << label;
  }
  EXPECT_TRUE(r.conditions.has_value()) << label;
  if (r.conditions) {
    EXPECT_EQ(r.conditions->size(), 4u) << label;
    for (const ConditionResult& c : *r.conditions) {
      EXPECT_EQ(c.violations, 0u) << label << ": condition " << c.name << ": " << c.first_violation;
      EXPECT_GT(c.checked, 0u) << label;
    }
  }
  return r;
}

// All transaction agents on one warehouse: they conflict on its rows
// (warehouse, districts, stock), deadlock now and then, and must stay consistent.
TEST(TpccEngine, ContendedWarehouseStaysConsistent) {
  if (cluster().size() < 2) GTEST_SKIP() << "needs a lock agent and a transaction agent";
  for (DeadlockPolicy policy : {DeadlockPolicy::bounded_wait, DeadlockPolicy::no_wait, DeadlockPolicy::wait_die}) {
    for (IsolationLevel isolation : {IsolationLevel::serializable, IsolationLevel::read_committed}) {
      TxnEngineConfig config = tpcc_config(1, 1);
      config.policy = policy;
      config.isolation = isolation;
      config.mix = TpccMix::trace;  // more Delivery and Stock-Level per New-Order
      expect_checked(config, to_string(policy) + " " + to_string(isolation));
    }
  }
}

TEST(TpccEngine, EveryTransportRunsIt) {
  if (cluster().size() < 2) GTEST_SKIP();
  for (TransportKind transport : {TransportKind::one_sided_rma, TransportKind::two_sided}) {
    TxnEngineConfig config = tpcc_config(1, 1);
    config.transport = transport;
    config.transactions_per_agent = 20;
    expect_checked(config, to_string(transport));
  }
}

// Remote supply warehouses and remote customers at other lock agents, often:
// the commit runs 2PC, and some participants vote no.
TEST(TpccEngine, RemoteWarehousesAcrossLockAgentsCommitWithTwoPhaseCommit) {
  if (cluster().size() < 3) GTEST_SKIP() << "needs two lock agents and a transaction agent";
  for (double no_votes : {0.0, 0.3}) {
    TxnEngineConfig config = tpcc_config(2, 3);
    config.remote_item_probability = 0.2;
    config.remote_customer_probability = 0.6;
    config.vote_no_probability = no_votes;
    const TxnRunResult r = expect_checked(config, "no votes " + std::to_string(no_votes));
    if (cluster().rank() != 0) continue;
    const TxnCounters& n = r.metrics.counters;
    EXPECT_GT(n.votes, 0u) << "2PC ran";
    EXPECT_GT(n.agents_in_committed, n.committed) << "some transactions reached two lock agents";
    if (no_votes > 0) {
      EXPECT_GT(n.aborted_by_vote, 0u);
      EXPECT_GT(n.rollbacks, 0u);
    }
  }
}

TEST(TpccEngine, ReadCommittedTakesFewerLongLocks) {
  if (cluster().size() < 2) GTEST_SKIP();
  double long_locks[2] = {0, 0};
  for (IsolationLevel isolation : {IsolationLevel::serializable, IsolationLevel::read_committed}) {
    TxnEngineConfig config = tpcc_config(1, 1);
    config.isolation = isolation;
    config.transactions_per_agent = 100;
    const TxnRunResult r = expect_checked(config, to_string(isolation));
    if (cluster().rank() != 0) continue;
    const TxnCounters& n = r.metrics.counters;
    long_locks[isolation == IsolationLevel::read_committed] =
        static_cast<double>(n.locks_in_committed - n.short_locks_in_committed) / static_cast<double>(n.committed);
  }
  if (cluster().rank() == 0) {
    EXPECT_LT(long_locks[1], 0.8 * long_locks[0]);
  }
}

}  // namespace
}  // namespace hpcdb::testing
