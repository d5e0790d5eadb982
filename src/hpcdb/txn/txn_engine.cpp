#include "hpcdb/txn/txn_engine.hpp"

#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/txn/lock_agent.hpp"
#include "hpcdb/txn/transaction_agent.hpp"

namespace hpcdb {
namespace {

std::vector<std::uint64_t> encode_versions(const std::vector<std::pair<LockId, TxnId>>& versions) {
  std::vector<std::uint64_t> words;
  for (const auto& [record, version] : versions) words.insert(words.end(), {record, version});
  return words;
}

std::vector<RecordVersion> decode_versions(const std::vector<std::uint64_t>& words) {
  std::vector<RecordVersion> out;
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) out.push_back({words[i], words[i + 1]});
  return out;
}

}  // namespace

TxnRunResult run_txn_engine(const Cluster& cluster, const TxnEngineConfig& config) {
  const MPI_Comm comm = cluster.world();
  const int rank = cluster.rank();
  std::unique_ptr<AgentRoles> roles;
  run_collectively(comm, [&] {
    if (config.record_history && !config.access_data) throw UsageError("--check needs record access (drop --no-data)");
    if (config.lock_timeout_ns == 0) throw UsageError("--lock-timeout must be positive");
    if (!(config.remote_probability >= 0 && config.remote_probability <= 1)) {
      throw UsageError("--remote-prob must be between 0 and 1");
    }
    roles = std::make_unique<AgentRoles>(comm, config.lock_agents, config.placement, config.locks_per_agent);
  });
  const auto transport = make_transport(config.transport, cluster);
  RecordStore records(cluster, *roles, config.access_data, config.transport == TransportKind::one_sided_rma);

  std::unique_ptr<LockAgent> lock_agent;
  std::unique_ptr<TransactionAgent> txn_agent;
  run_collectively(comm, [&] {
    if (roles->lock_agent_index(rank) >= 0) {
      lock_agent = std::make_unique<LockAgent>(*transport, records, *roles, config, rank);
    } else {
      txn_agent = std::make_unique<TransactionAgent>(*transport, records, *roles, config, rank);
    }
  });
  MPI_Barrier(comm);
  TxnMetrics mine;
  try {
    mine = lock_agent ? lock_agent->run() : txn_agent->run();
  } catch (const std::exception& e) {
    // Only this rank knows; its peers may be blocked waiting on it, so end
    // the job here rather than unwind into the transport's collective destructors.
    cluster.fail(e.what(), 1);
  }

  TxnRunResult result;
  result.metrics = reduce_metrics(comm, 0, mine);
  MPI_Comm_size(comm, &result.ranks);
  result.lock_agents = static_cast<int>(roles->lock_agents().size());
  result.txn_agents = static_cast<int>(roles->txn_agents().size());
  result.nodes = roles->nodes();
  if (config.record_history) {
    static const std::vector<std::uint64_t> none;
    const auto history = gather_words(comm, 0, txn_agent ? txn_agent->history() : none);
    const auto finals =
        gather_words(comm, 0, lock_agent ? encode_versions(records.written_versions()) : std::vector<std::uint64_t>{});
    if (rank == 0) {
      result.check = check_history(decode_history(history), decode_versions(finals),
                                   config.isolation == IsolationLevel::serializable);
    }
  }
  return result;
}

}  // namespace hpcdb
