#pragma once
// The model of the distributed lock manager (thesis Eqs. 5.1-5.4): expected
// transaction time from message times, queueing, the 2PC vote and clean-up,
// and throughput N_tx_core / t_tx (Eq. 5.4 as printed, 1 / (N * t), is
// dimensionally wrong; Table 5.1 uses N / t).
#include <cmath>

namespace hpcdb {

struct LockModelSetting {
  double locks_per_txn = 10;        // N_locks(w)
  double local_probability = 1;     // P_local_lock(w)
  double local_comm = 0;            // t_local_comm, seconds one way
  double remote_comm = 0;           // t_remote_comm
  double queueing = 0;              // t_queue(w) per lock
  double vote = 0;                  // t_vote
  double clean_up = 0;              // t_clean_up
  double transaction_agents = 1;    // N_tx_core
};

// P_all_local (Eq. 5.2).
inline double all_local_probability(const LockModelSetting& s) {
  return std::pow(s.local_probability, s.locks_per_txn);
}

// t_tx (Eq. 5.3), seconds.
inline double transaction_time(const LockModelSetting& s) {
  const double one_way = s.local_probability * s.local_comm + (1 - s.local_probability) * s.remote_comm;
  return s.locks_per_txn * 2 * one_way + s.locks_per_txn * s.queueing + (1 - all_local_probability(s)) * s.vote +
         s.clean_up;
}

// Tp (Eq. 5.4 corrected), transactions per second.
inline double transaction_throughput(const LockModelSetting& s) { return s.transaction_agents / transaction_time(s); }

}  // namespace hpcdb
