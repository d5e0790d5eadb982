#include "hpcdb/txn/txn_engine.hpp"

#include <fmt/format.h>

#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/progress_observer.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/txn/condition_results.hpp"
#include "hpcdb/txn/lock_agent.hpp"
#include "hpcdb/txn/trace/trace_output.hpp"
#include "hpcdb/txn/transaction_agent.hpp"
#include "hpcdb/txn/workload_factory.hpp"

namespace hpcdb {
namespace {

std::vector<std::uint64_t> encode_versions(const std::vector<RecordVersion>& versions) {
  std::vector<std::uint64_t> words;
  for (const RecordVersion& v : versions) words.insert(words.end(), {v.record, v.version});
  return words;
}

std::vector<RecordVersion> decode_versions(const std::vector<std::uint64_t>& words) {
  std::vector<RecordVersion> out;
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) out.push_back({words[i], words[i + 1]});
  return out;
}

void check_config(const TxnEngineConfig& config) {
  if (config.record_history && !config.access_data) throw UsageError("--check needs record access (drop --no-data)");
  if (config.lock_timeout_ns == 0) throw UsageError("--lock-timeout must be positive");
  if (config.retries < 0) throw UsageError("--retries must not be negative");
  if (!config.trace_out_dir.empty() && config.workload == WorkloadKind::synthetic) {
    throw UsageError("--trace-out records TPC-C transactions (or replayed traces), not the synthetic workload");
  }
}

// The parts of a run every rank agrees on before any agent starts.
struct RunPlan {
  std::unique_ptr<AgentRoles> roles;
  std::unique_ptr<WorkloadDefinition> workload;
  std::unique_ptr<LockSpace> space;
};

RunPlan plan_run(MPI_Comm comm, const TxnEngineConfig& config) {
  RunPlan plan;
  run_collectively(comm, [&] {
    check_config(config);
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    plan.workload = make_workload(config, ranks);
    plan.roles = std::make_unique<AgentRoles>(comm, config.lock_agents, config.placement);
    const int agents = static_cast<int>(plan.roles->lock_agents().size());
    plan.space = std::make_unique<LockSpace>(plan.workload->partitions(agents), plan.roles->lock_agents());
  });
  return plan;
}

// Refuses, before anything is allocated, records that cannot fit in this
// node's memory: every lock agent keeps its partitions' records in
// node-shared memory (/dev/shm on Linux).
void check_data_fits(const Cluster& cluster, const RunPlan& plan, const TxnEngineConfig& config) {
  const DataShape shape = plan.workload->data_shape();
  if (!config.access_data || shape.partition_bytes + shape.replica_bytes == 0) return;
  std::uint64_t on_node = 0;
  int agents_on_node = 0;
  const auto& agents = plan.space->agent_ranks();
  for (std::size_t a = 0; a < agents.size(); ++a) {
    if (cluster.node_rank_of(agents[a]) < 0) continue;
    const auto agent = static_cast<int>(a);
    const std::uint64_t partitions = plan.space->end_partition_of(agent) - plan.space->first_partition_of(agent);
    on_node += partitions * shape.partition_bytes + shape.replica_bytes;
    ++agents_on_node;
  }
  const std::string driver = config.workload == WorkloadKind::tpcc ? "fewer --warehouses or a smaller --order-capacity"
                                                                   : "fewer --locks-per-agent";
  const std::string what = fmt::format("keeping the records of this node's {} lock agent{}", agents_on_node,
                                       agents_on_node == 1 ? "" : "s");
  if (const auto shortfall = memory_shortfall(on_node)) {
    throw UsageError(what + " " + *shortfall + "; use " + driver + ", lock agents on more nodes, or --no-data");
  }
  if (const auto shortfall = shared_memory_shortfall(on_node)) {
    throw UsageError(what + " " + *shortfall + ", or use " + driver + " or --no-data");
  }
}

// The lock agents load their partitions; returns the slowest one's seconds.
// Seconds the lock agents took to load their data (0 for a workload without data).
double load_data(const Cluster& cluster, const RunPlan& plan, DataStore& data) {
  const DataShape shape = plan.workload->data_shape();
  if (!data.enabled() || shape.partition_bytes + shape.replica_bytes == 0) return 0;
  const int agent = plan.roles->lock_agent_index(cluster.rank());
  Stopwatch watch;
  run_collectively(cluster.world(), [&] {
    if (agent >= 0 && data.enabled()) {
      plan.workload->load(data, *plan.space, agent);
      data.publish_local_writes();
    }
  });
  double seconds = watch.seconds();
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, cluster.world());
  return seconds;
}

void check_results(const Cluster& cluster, const TxnEngineConfig& config, const RunPlan& plan, DataStore& data,
                   const TransactionAgent* txn_agent, TxnRunResult& result) {
  const MPI_Comm comm = cluster.world();
  const int agent = plan.roles->lock_agent_index(cluster.rank());
  MPI_Barrier(comm);  // every transaction has ended everywhere
  std::vector<std::uint64_t> final_words;
  std::vector<ConditionResult> found;
  if (agent >= 0) {
    try {
      final_words = encode_versions(plan.workload->final_versions(data, *plan.space, agent));
      found = plan.workload->check(data, *plan.space, agent);
    } catch (const std::exception& e) {
      cluster.fail(e.what(), 1);  // the others wait in the gathers below
    }
  }
  static const std::vector<std::uint64_t> none;
  const auto history = gather_words(comm, 0, txn_agent ? txn_agent->history() : none);
  const auto finals = gather_words(comm, 0, final_words);
  const auto conditions = gather_conditions(comm, 0, found);
  if (cluster.rank() != 0) return;
  result.check = check_history(decode_history(history), decode_versions(finals),
                               config.isolation == IsolationLevel::serializable);
  if (!conditions.empty()) result.conditions = conditions;
}

}  // namespace

bool TxnRunResult::ok() const {
  if (check && !check->ok) return false;
  if (conditions) {
    for (const ConditionResult& c : *conditions)
      if (c.violations > 0) return false;
  }
  return true;
}

// The phases are reported to whoever watches the job (net/progress_guard.hpp):
// a rank that stops in the start-up or the finish is noticed there, one that
// stops in the run by the agents themselves (they name what it did last).
TxnRunResult run_txn_engine(const Cluster& cluster, const TxnEngineConfig& config) {
  const MPI_Comm comm = cluster.world();
  const int rank = cluster.rank();
  report_phase_start("plan");
  const RunPlan plan = plan_run(comm, config);
  run_collectively(comm, [&] { check_data_fits(cluster, plan, config); });
  const auto transport = make_transport(config.transport, cluster);
  transport->limit_send_waits(config.reply_timeout_ns);
  config.failure.fire_at(rank, kStartUp, " in the start-up");
  report_phase_start("load");
  DataStore data(cluster, *plan.space, plan.workload->data_shape(), config.access_data,
                 config.transport == TransportKind::one_sided_rma);
  TxnRunResult result;
  result.load_seconds = load_data(cluster, plan, data);

  report_phase_start("agents");
  std::unique_ptr<LockAgent> lock_agent;
  std::unique_ptr<TransactionAgent> txn_agent;
  run_collectively(comm, [&] {
    if (plan.roles->lock_agent_index(rank) >= 0) {
      lock_agent = std::make_unique<LockAgent>(*transport, *plan.roles, *plan.space, config, rank);
    } else {
      txn_agent = std::make_unique<TransactionAgent>(*transport, data, *plan.roles, *plan.space, *plan.workload,
                                                     config, rank);
    }
  });
  MPI_Barrier(comm);
  report_phase_start("run");
  TxnMetrics mine;
  try {
    mine = lock_agent ? lock_agent->run() : txn_agent->run();
  } catch (const std::exception& e) {
    // Only this rank knows; its peers may be blocked waiting on it, so end
    // the job here rather than unwind into the transport's collective destructors.
    cluster.fail(e.what(), 1);
  }

  config.failure.fire_at(rank, kFinish, " in the finish");
  report_phase_start("results");
  result.metrics = reduce_metrics(comm, 0, mine);
  MPI_Comm_size(comm, &result.ranks);
  result.lock_agents = static_cast<int>(plan.roles->lock_agents().size());
  result.txn_agents = static_cast<int>(plan.roles->txn_agents().size());
  result.nodes = plan.roles->nodes();
  result.partitions = plan.space->partitions();
  result.type_names = plan.workload->type_names();
  if (config.record_history) check_results(cluster, config, plan, data, txn_agent.get(), result);
  if (!config.trace_out_dir.empty()) {
    static const std::vector<TracedTransaction> none;
    run_collectively(comm, [&] {
      write_lock_traces(comm, config.trace_out_dir, result.partitions, result.type_names,
                        txn_agent ? txn_agent->traced() : none);
    });
  }
  return result;
}

}  // namespace hpcdb
