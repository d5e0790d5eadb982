#include "hpcdb/txn/synthetic/synthetic_transaction.hpp"

#include <algorithm>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

bool reads(LockMode m) { return m == LockMode::S || m == LockMode::SIX || m == LockMode::X; }
bool is_read_lock(LockMode m) { return m == LockMode::IS || m == LockMode::S; }

}  // namespace

SyntheticTransaction::SyntheticTransaction(int locks_per_txn)
    : plan_(static_cast<std::size_t>(locks_per_txn)), seen_(static_cast<std::size_t>(locks_per_txn)) {}

ProgramEnd SyntheticTransaction::run(Transaction& txn) {
  const bool read_committed = txn.isolation() == IsolationLevel::read_committed;
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    const PlannedLock& p = plan_[i];
    txn.lock(p.lock, p.mode);
    if (!read_committed || !is_read_lock(p.mode)) continue;
    if (p.mode == LockMode::S && txn.data_enabled()) {  // read under the short lock, then let it go
      const LockName name = LockSpace::name_of(p.lock);
      seen_[i] = txn.read<SyntheticRecord>(SyntheticWorkload::record(name.partition, name.key));
      if (txn.recording_history()) txn.note_read(p.lock, seen_[i].version);
    }
    txn.unlock(p.lock);
  }
  if (txn.data_enabled()) access_records(txn);
  return ProgramEnd::commit;
}

void SyntheticTransaction::access_records(Transaction& txn) {
  // Every lock is held now: read what S, SIX and X cover (S is read already
  // under read committed, while its short lock was held), and write a new
  // version of every X-locked record.
  const bool read_committed = txn.isolation() == IsolationLevel::read_committed;
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    const PlannedLock& p = plan_[i];
    if (!reads(p.mode) || (read_committed && p.mode == LockMode::S)) continue;
    const LockName name = LockSpace::name_of(p.lock);
    const DataRef at = SyntheticWorkload::record(name.partition, name.key);
    seen_[i] = txn.read<SyntheticRecord>(at);
    if (txn.recording_history()) txn.note_read(p.lock, seen_[i].version);
    if (p.mode != LockMode::X) continue;
    txn.write(at, SyntheticRecord{txn.id(), seen_[i].value + 1});
    if (txn.recording_history()) txn.note_write(p.lock, seen_[i].version);
  }
}

SyntheticSource::SyntheticSource(const SourceContext& context, std::uint64_t locks_per_agent, int locks_per_txn,
                                 double remote_probability)
    : space_(context.space),
      locks_per_agent_(locks_per_agent),
      locks_per_txn_(locks_per_txn),
      remote_probability_(remote_probability),
      local_(context.roles.local_lock_agents(context.rank)),
      remote_(context.roles.remote_lock_agents(context.rank)),
      transaction_(locks_per_txn) {
  const int rank = context.rank;
  if (remote_probability > 0 && remote_.empty()) {
    throw UsageError("--remote-prob > 0 needs lock agents on another node, but rank " + std::to_string(rank) +
                     " has none (all ranks run on one node, or --lock-agents is too small)");
  }
  if (remote_probability < 1 && local_.empty()) {
    throw UsageError("rank " + std::to_string(rank) +
                     " runs transactions on a node without a lock agent; use --placement spread, more --lock-agents, "
                     "or --remote-prob 1");
  }
  const auto side = [&](const std::vector<int>& agents) { return agents.size() * locks_per_agent; };
  if ((remote_probability < 1 && side(local_) < static_cast<std::uint64_t>(locks_per_txn)) ||
      (remote_probability > 0 && side(remote_) < static_cast<std::uint64_t>(locks_per_txn))) {
    throw UsageError("too few locks per node for --locks-per-txn distinct locks; raise --locks-per-agent");
  }
}

LockId SyntheticSource::draw(std::mt19937_64& rng, const std::vector<int>& agents) const {
  const std::uint64_t n = agents.size() * locks_per_agent_;
  const std::uint64_t pick = std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
  // One partition per lock agent: the agent's index is its partition.
  const auto partition = static_cast<std::uint32_t>(agents[pick / locks_per_agent_]);
  return LockSpace::key_lock(SyntheticWorkload::kTable, partition, pick % locks_per_agent_);
}

NextTransaction SyntheticSource::next(std::mt19937_64& rng) {
  std::vector<PlannedLock>& out = transaction_.plan();
  out.clear();
  std::bernoulli_distribution remote(remote_probability_);
  std::uniform_int_distribution<int> mode(index_of(LockMode::IS), index_of(LockMode::X));
  while (out.size() < static_cast<std::size_t>(locks_per_txn_)) {
    const LockId lock = draw(rng, remote(rng) ? remote_ : local_);
    if (std::any_of(out.begin(), out.end(), [&](const PlannedLock& p) { return p.lock == lock; })) continue;
    out.push_back({lock, static_cast<LockMode>(mode(rng))});
  }
  return {0, 0, &transaction_};
}

}  // namespace hpcdb
