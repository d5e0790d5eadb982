#include "hpcdb/txn/synthetic_workload.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

SyntheticWorkload::SyntheticWorkload(const AgentRoles& roles, int rank, int locks_per_txn, double remote_probability)
    : roles_(roles),
      locks_per_txn_(locks_per_txn),
      remote_probability_(remote_probability),
      local_(roles.local_lock_agents(rank)),
      remote_(roles.remote_lock_agents(rank)) {
  if (locks_per_txn < 1) throw UsageError("--locks-per-txn must be at least 1");
  if (static_cast<LockId>(locks_per_txn) > roles.total_locks()) {
    throw UsageError("--locks-per-txn exceeds the number of locks (" + std::to_string(roles.total_locks()) + ")");
  }
  if (remote_probability > 0 && remote_.empty()) {
    throw UsageError("--remote-prob > 0 needs lock agents on another node, but rank " + std::to_string(rank) +
                     " has none (all ranks run on one node, or --lock-agents is too small)");
  }
  if (remote_probability < 1 && local_.empty()) {
    throw UsageError("rank " + std::to_string(rank) +
                     " runs transactions on a node without a lock agent; use --placement spread, more --lock-agents, "
                     "or --remote-prob 1");
  }
  const auto side = [&](const std::vector<int>& agents) { return agents.size() * roles.locks_per_agent(); };
  if ((remote_probability < 1 && side(local_) < static_cast<LockId>(locks_per_txn)) ||
      (remote_probability > 0 && side(remote_) < static_cast<LockId>(locks_per_txn))) {
    throw UsageError("too few locks per node for --locks-per-txn distinct locks; raise --locks-per-agent");
  }
}

LockId SyntheticWorkload::draw(std::mt19937_64& rng, const std::vector<int>& agents) const {
  const LockId n = agents.size() * roles_.locks_per_agent();
  const LockId pick = std::uniform_int_distribution<LockId>(0, n - 1)(rng);
  return roles_.first_lock_of(agents[pick / roles_.locks_per_agent()]) + pick % roles_.locks_per_agent();
}

void SyntheticWorkload::next(std::mt19937_64& rng, std::vector<PlannedLock>& out) const {
  out.clear();
  std::bernoulli_distribution remote(remote_probability_);
  std::uniform_int_distribution<int> mode(index_of(LockMode::IS), index_of(LockMode::X));
  while (out.size() < static_cast<std::size_t>(locks_per_txn_)) {
    const LockId lock = draw(rng, remote(rng) ? remote_ : local_);
    if (std::any_of(out.begin(), out.end(), [&](const PlannedLock& p) { return p.lock == lock; })) continue;
    out.push_back({lock, static_cast<LockMode>(mode(rng))});
  }
}

}  // namespace hpcdb
