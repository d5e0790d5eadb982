#include "hpcdb/txn/lock_model.hpp"

#include <gtest/gtest.h>

namespace hpcdb {
namespace {

// Table 5.1 (N_locks = 10) with the parameters back-solved in the spec:
// A = 20 t_local + 10 t_queue + t_clean_up = 67.5 us, t_remote - t_local =
// 2.6 us, t_vote = 8.5 us (here: t_local = 1 us, t_queue = 2 us, clean-up 27.5 us).
LockModelSetting table_5_1(double remote_probability, double agents) {
  LockModelSetting s;
  s.locks_per_txn = 10;
  s.local_probability = 1 - remote_probability;
  s.local_comm = 1e-6;
  s.remote_comm = 3.6e-6;
  s.queueing = 2e-6;
  s.clean_up = 27.5e-6;
  s.vote = 8.5e-6;
  s.transaction_agents = agents;
  return s;
}

TEST(LockModel, ReproducesTable51) {
  const double p[] = {0, 0.01, 0.05, 0.10, 0.25, 0.50};
  const double micros[] = {67.500, 68.833, 73.511, 78.236, 88.521, 101.992};
  const double tp_1260[] = {18.67, 18.31, 17.14, 16.11, 14.23, 12.35};
  const double tp_2520[] = {37.33, 36.61, 34.28, 32.21, 28.47, 24.71};
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(transaction_time(table_5_1(p[i], 1260)) * 1e6, micros[i], 0.0005) << p[i];
    EXPECT_NEAR(transaction_throughput(table_5_1(p[i], 1260)) / 1e6, tp_1260[i], 0.005) << p[i];
    EXPECT_NEAR(transaction_throughput(table_5_1(p[i], 2520)) / 1e6, tp_2520[i], 0.005) << p[i];
  }
}

TEST(LockModel, AllLocalTransactionsNeverVote) {
  LockModelSetting s = table_5_1(0, 1);
  EXPECT_DOUBLE_EQ(all_local_probability(s), 1.0);
  s.vote = 1.0;  // irrelevant when every lock is local
  EXPECT_NEAR(transaction_time(s) * 1e6, 67.5, 1e-9);
}

}  // namespace
}  // namespace hpcdb
