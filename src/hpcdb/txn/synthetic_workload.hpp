#pragma once
// The synthetic workload of the thesis (Sec. 5.4.1): each transaction locks
// a fixed number of distinct locks, each in a mode drawn uniformly from
// IS, IX, S, SIX, X; a lock is remote (owned by a lock agent on another
// node) with probability p, else local, and uniform within its side.
#include <random>
#include <vector>

#include "hpcdb/txn/agent_roles.hpp"

namespace hpcdb {

struct PlannedLock {
  LockId lock = 0;
  LockMode mode = LockMode::NL;
};

class SyntheticWorkload {
 public:
  // Throws UsageError when `rank` has no lock agent on the side it needs.
  // `remote_probability` is in [0, 1] (the engine checks it).
  SyntheticWorkload(const AgentRoles& roles, int rank, int locks_per_txn, double remote_probability);

  void next(std::mt19937_64& rng, std::vector<PlannedLock>& out) const;

 private:
  LockId draw(std::mt19937_64& rng, const std::vector<int>& agents) const;

  const AgentRoles& roles_;
  int locks_per_txn_;
  double remote_probability_;
  std::vector<int> local_;
  std::vector<int> remote_;
};

}  // namespace hpcdb
