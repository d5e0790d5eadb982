#include "hpcdb/apps/hpcdb/txn_report.hpp"

#include <fmt/format.h>

namespace hpcdb {
namespace {

double per_second(std::uint64_t n, double seconds) { return seconds > 0 ? static_cast<double>(n) / seconds : 0.0; }

double ratio(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

nlohmann::ordered_json latency_json(const LatencyHistogram& h) {
  nlohmann::ordered_json j;
  j["count"] = h.count();
  j["median_us"] = h.quantile(0.5) / 1e3;
  j["mean_us"] = h.mean() / 1e3;
  j["p99_us"] = h.quantile(0.99) / 1e3;
  return j;
}

std::string latency_text(const LatencyHistogram& h) {
  if (h.count() == 0) return "-";
  return fmt::format("{:.2f} / {:.2f} / {:.2f}", h.quantile(0.5) / 1e3, h.mean() / 1e3, h.quantile(0.99) / 1e3);
}

}  // namespace

LockModelSetting model_setting_of(const TxnEngineConfig& config, const TxnRunResult& result) {
  const TxnMetrics& m = result.metrics;
  LockModelSetting s;
  s.locks_per_txn = config.locks_per_txn;
  s.local_probability = 1 - config.remote_probability;
  const double processing = m.service.mean() * 1e-9;
  s.local_comm = (m.ping_local.quantile(0.5) * 1e-9 + processing) / 2;
  s.remote_comm = m.ping_remote.count() > 0 ? (m.ping_remote.quantile(0.5) * 1e-9 + processing) / 2 : s.local_comm;
  s.queueing = m.queueing.mean() * 1e-9;
  const double round_trip = 2 * (config.remote_probability > 0 ? s.remote_comm : s.local_comm);
  s.vote = m.vote.count() > 0 ? m.vote.quantile(0.5) * 1e-9 : round_trip;
  s.clean_up = s.local_comm;
  s.transaction_agents = result.txn_agents;
  return s;
}

std::string txn_report_text(const TxnOptions& o, const TxnEngineConfig& c, const TxnRunResult& r) {
  const TxnMetrics& m = r.metrics;
  const TxnCounters& n = m.counters;
  const std::uint64_t started = n.committed + n.aborted();
  std::string out;
  out += fmt::format("hpcdb txn: {} workload, {}, {} (lock timeout {} ms), {} transport{}\n", o.workload,
                     to_string(c.isolation), to_string(c.policy), o.lock_timeout_ms, to_string(c.transport),
                     c.access_data ? "" : ", locks only (no record access)");
  out += fmt::format("  ranks {}: {} lock agent(s), {} transaction agent(s), {} node(s); {} locks per transaction, "
                     "remote probability {}\n",
                     r.ranks, r.lock_agents, r.txn_agents, r.nodes, c.locks_per_txn, c.remote_probability);
  out += fmt::format("  committed {} in {:.3f} s: {:.0f} transactions/s; aborted {} ({:.3f}%: {} by locks, {} by votes)\n",
                     n.committed, m.seconds, per_second(n.committed, m.seconds), n.aborted(),
                     100 * ratio(n.aborted(), started), n.aborted_by_lock, n.aborted_by_vote);
  out += fmt::format("  lock requests {}: {:.0f} /s; per committed transaction {:.2f} locks at {:.2f} lock agents; "
                     "2PC in {:.2f}% of transactions\n",
                     n.lock_requests, per_second(n.lock_requests, m.seconds), ratio(n.locks_in_committed, n.committed),
                     ratio(n.agents_in_committed, n.committed), 100 * ratio(n.votes, started));
  out += "  latency, microseconds (median / mean / p99):\n";
  out += fmt::format("    lock round trip      {}\n", latency_text(m.round_trip));
  out += fmt::format("      queueing at agent  {}\n", latency_text(m.queueing));
  out += fmt::format("      agent processing   {}\n", latency_text(m.service));
  out += fmt::format("    2PC vote             {}\n", latency_text(m.vote));
  out += fmt::format("    committed txn        {}\n", latency_text(m.transaction));
  out += fmt::format("    transport ping       {} (same node), {} (other node)\n", latency_text(m.ping_local),
                     latency_text(m.ping_remote));
  if (m.ping_local.count() + m.ping_remote.count() > 0) {
    const LockModelSetting s = model_setting_of(c, r);
    const double predicted = transaction_throughput(s);
    out += fmt::format("  model (Eqs. 5.1-5.4; one-way {:.2f}/{:.2f} us local/remote, queueing {:.2f} us, vote {:.2f} us): "
                       "t_tx {:.2f} us, {:.0f} transactions/s; measured/model {:.2f}{}\n",
                       s.local_comm * 1e6, s.remote_comm * 1e6, s.queueing * 1e6, s.vote * 1e6,
                       transaction_time(s) * 1e6, predicted, per_second(n.committed, m.seconds) / predicted,
                       c.access_data ? " (the model leaves out record access)" : "");
  }
  if (n.rollbacks > 0) out += fmt::format("  rolled back from undo images: {} transaction(s) at lock agents\n", n.rollbacks);
  if (r.check) {
    out += r.check->ok ? fmt::format("  history check: {} ({} committed transactions, {} graph edges)\n",
                                     c.isolation == IsolationLevel::serializable ? "serializable"
                                                                                 : "no dirty reads, no lost updates",
                                     r.check->transactions, r.check->edges)
                       : fmt::format("  history check FAILED: {}\n", r.check->problem);
  }
  return out;
}

nlohmann::ordered_json txn_report_json(const TxnOptions& o, const TxnEngineConfig& c, const TxnRunResult& r) {
  const TxnMetrics& m = r.metrics;
  const TxnCounters& n = m.counters;
  const std::uint64_t started = n.committed + n.aborted();
  nlohmann::ordered_json j;
  j["workload"] = o.workload;
  j["transport"] = to_string(c.transport);
  j["isolation"] = to_string(c.isolation);
  j["cc"] = to_string(c.policy);
  j["lock_timeout_ms"] = o.lock_timeout_ms;
  j["ranks"] = r.ranks;
  j["lock_agents"] = r.lock_agents;
  j["txn_agents"] = r.txn_agents;
  j["nodes"] = r.nodes;
  j["locks_per_txn"] = c.locks_per_txn;
  j["remote_probability"] = c.remote_probability;
  j["record_access"] = c.access_data;
  j["seconds"] = m.seconds;
  j["committed"] = n.committed;
  j["aborted"] = n.aborted();
  j["aborted_by_lock"] = n.aborted_by_lock;
  j["aborted_by_vote"] = n.aborted_by_vote;
  j["abort_rate"] = ratio(n.aborted(), started);
  j["transactions_per_second"] = per_second(n.committed, m.seconds);
  j["lock_requests"] = n.lock_requests;
  j["lock_requests_per_second"] = per_second(n.lock_requests, m.seconds);
  j["locks_per_committed_txn"] = ratio(n.locks_in_committed, n.committed);
  j["lock_agents_per_committed_txn"] = ratio(n.agents_in_committed, n.committed);
  j["two_phase_commits"] = n.votes;
  j["rollbacks"] = n.rollbacks;
  j["record_reads"] = n.record_reads;
  j["record_writes"] = n.record_writes;
  j["latency"] = {{"lock_round_trip", latency_json(m.round_trip)},
                  {"lock_queueing", latency_json(m.queueing)},
                  {"lock_processing", latency_json(m.service)},
                  {"vote", latency_json(m.vote)},
                  {"committed_transaction", latency_json(m.transaction)},
                  {"ping_same_node", latency_json(m.ping_local)},
                  {"ping_other_node", latency_json(m.ping_remote)}};
  if (m.ping_local.count() + m.ping_remote.count() > 0) {
    const LockModelSetting s = model_setting_of(c, r);
    j["model"] = {{"local_comm_us", s.local_comm * 1e6},   {"remote_comm_us", s.remote_comm * 1e6},
                  {"queueing_us", s.queueing * 1e6},       {"vote_us", s.vote * 1e6},
                  {"clean_up_us", s.clean_up * 1e6},       {"transaction_us", transaction_time(s) * 1e6},
                  {"transactions_per_second", transaction_throughput(s)}};
  }
  if (r.check) {
    j["history_check"] = {{"ok", r.check->ok},
                          {"transactions", r.check->transactions},
                          {"edges", r.check->edges},
                          {"problem", r.check->problem}};
  }
  return j;
}

}  // namespace hpcdb
