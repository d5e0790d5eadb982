#pragma once
// The synthetic transaction (thesis Sec. 5.4.1): a fixed number of distinct
// locks, each in a mode drawn uniformly from IS, IX, S, SIX, X, each owned
// by a lock agent on another node with probability p (else one on this
// node), uniform within its side. The locks are taken one after the other;
// once all are held, the records under S, SIX and X are read and those under
// X get a new version. Under read committed IS and S are released at once
// (S after its record is read).
#include <random>
#include <vector>

#include "hpcdb/txn/synthetic/synthetic_workload.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

struct PlannedLock {
  LockId lock = 0;
  LockMode mode = LockMode::NL;
};

class SyntheticTransaction final : public TransactionProgram {
 public:
  explicit SyntheticTransaction(int locks_per_txn);
  std::vector<PlannedLock>& plan() { return plan_; }
  ProgramEnd run(Transaction& txn) override;

 private:
  void access_records(Transaction& txn);

  std::vector<PlannedLock> plan_;
  std::vector<SyntheticRecord> seen_;  // per planned lock, the version read
};

class SyntheticSource final : public TransactionSource {
 public:
  // Throws UsageError when this rank has no lock agent on a side it needs.
  SyntheticSource(const SourceContext& context, std::uint64_t locks_per_agent, int locks_per_txn,
                  double remote_probability);
  NextTransaction next(std::mt19937_64& rng) override;

 private:
  LockId draw(std::mt19937_64& rng, const std::vector<int>& agents) const;

  const LockSpace& space_;
  std::uint64_t locks_per_agent_;
  int locks_per_txn_;
  double remote_probability_;
  std::vector<int> local_;   // lock agent indexes
  std::vector<int> remote_;
  SyntheticTransaction transaction_;
};

}  // namespace hpcdb
