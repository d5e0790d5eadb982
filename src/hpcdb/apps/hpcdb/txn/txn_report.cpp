#include "hpcdb/apps/hpcdb/txn/txn_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

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

// Shares of the transaction agents' time (all attempts): locking, 2PC vote,
// end of transaction (undo and decision messages), and the rest: data access
// together with the programs' own work.
struct TimeSplit {
  double locking = 0, data = 0, vote = 0, end = 0;
};

TimeSplit time_split(const TxnCounters& n) {
  if (n.attempt_ns == 0) return {};
  const auto share = [&](std::uint64_t ns) { return static_cast<double>(ns) / static_cast<double>(n.attempt_ns); };
  TimeSplit s{share(n.locking_ns), 0, share(n.vote_ns), share(n.end_ns)};
  s.data = std::max(0.0, 1 - s.locking - s.vote - s.end);
  return s;
}

// New-Orders completed per minute (those the program rolled back included, as
// TPC-C counts them), or nothing for workloads without New-Order.
std::optional<double> new_orders_per_minute(const TxnMetrics& m, const std::vector<std::string>& names) {
  const auto at = std::find(names.begin(), names.end(), "new-order");
  if (at == names.end() || m.seconds <= 0) return std::nullopt;
  const TypeCounters& t = m.types[static_cast<std::size_t>(at - names.begin())];
  return 60.0 * static_cast<double>(t.committed + t.rolled_back) / m.seconds;
}

std::string workload_text(const TxnEngineConfig& c, const TxnRunResult& r) {
  switch (c.workload) {
    case WorkloadKind::synthetic:
      return fmt::format("{} locks per transaction, remote probability {}", c.locks_per_txn, c.remote_probability);
    case WorkloadKind::tpcc:
      return fmt::format("{} warehouse(s), {} mix", r.partitions, to_string(c.mix));
    case WorkloadKind::trace:
      return fmt::format("traces of {} warehouse(s) from {}", r.partitions, c.trace_dir);
  }
  return "";
}

std::string aborts_text(const TxnCounters& n) {
  return fmt::format("  attempts {}: aborted {} ({:.3f}%: {} lock timeouts, {} no-wait conflicts, {} wait-die deaths, "
                     "{} no votes); given up after all retries {}; rolled back by the program {}\n",
                     n.attempts(), n.aborted(), 100 * ratio(n.aborted(), n.attempts()), n.aborted_by_timeout,
                     n.aborted_by_no_wait, n.aborted_by_wait_die, n.aborted_by_vote, n.given_up, n.rolled_back);
}

std::string types_text(const TxnMetrics& m, const std::vector<std::string>& names) {
  std::string out = fmt::format("  {:<14} {:>10} {:>10} {:>8} {:>9} {:>10} {:>8} {:>11}\n", "type", "committed", "tx/s",
                                "aborted", "locks/tx", "agents/tx", "2PC %", "ms med/p99");
  for (std::size_t t = 0; t < names.size(); ++t) {
    const TypeCounters& c = m.types[t];
    const LatencyHistogram& h = m.type_latency[t];
    if (c.committed + c.aborted + c.rolled_back == 0) continue;  // e.g. a replay's "other" names
    out += fmt::format("  {:<14} {:>10} {:>10.0f} {:>8} {:>9.1f} {:>10.2f} {:>8.2f} {:>5.2f}/{:<5.2f}\n", names[t],
                       c.committed, per_second(c.committed, m.seconds), c.aborted,
                       ratio(c.locks_in_committed, c.committed), ratio(c.agents_in_committed, c.committed),
                       100 * ratio(c.votes, c.committed + c.aborted + c.rolled_back), h.quantile(0.5) / 1e6,
                       h.quantile(0.99) / 1e6);
  }
  return out;
}

std::string checks_text(const TxnEngineConfig& c, const TxnRunResult& r) {
  std::string out;
  if (r.check) {
    out += r.check->ok ? fmt::format("  history check: {} ({} committed transactions, {} graph edges)\n",
                                     c.isolation == IsolationLevel::serializable ? "serializable"
                                                                                 : "no dirty reads, no lost updates",
                                     r.check->transactions, r.check->edges)
                       : fmt::format("  history check FAILED: {}\n", r.check->problem);
  }
  if (r.conditions) {
    for (const ConditionResult& cond : *r.conditions) {
      out += cond.violations == 0
                 ? fmt::format("  consistency {}: holds ({} checked)\n", cond.name, cond.checked)
                 : fmt::format("  consistency {} FAILED in {} of {}: {}\n", cond.name, cond.violations, cond.checked,
                               cond.first_violation);
    }
  }
  return out;
}

}  // namespace

LockModelSetting model_setting_of(const TxnEngineConfig& config, const TxnRunResult& result) {
  const TxnMetrics& m = result.metrics;
  LockModelSetting s;
  s.locks_per_txn = ratio(m.counters.locks_in_committed, m.counters.committed);
  s.local_probability = config.workload == WorkloadKind::synthetic ? 1 - config.remote_probability : 1;
  const double processing = m.service.mean() * 1e-9;
  s.local_comm = (m.ping_local.quantile(0.5) * 1e-9 + processing) / 2;
  s.remote_comm = m.ping_remote.count() > 0 ? (m.ping_remote.quantile(0.5) * 1e-9 + processing) / 2 : s.local_comm;
  s.queueing = m.queueing.mean() * 1e-9;
  const double round_trip = 2 * (s.local_probability < 1 ? s.remote_comm : s.local_comm);
  s.vote = m.vote.count() > 0 ? m.vote.quantile(0.5) * 1e-9 : round_trip;
  s.clean_up = s.local_comm;
  s.transaction_agents = result.txn_agents;
  return s;
}

std::string txn_report_text(const TxnOptions& o, const TxnEngineConfig& c, const TxnRunResult& r) {
  const TxnMetrics& m = r.metrics;
  const TxnCounters& n = m.counters;
  std::string out;
  out += fmt::format("hpcdb txn: {} workload, {}, {} (lock timeout {} ms), {} transport{}\n", to_string(c.workload),
                     to_string(c.isolation), to_string(c.policy), o.lock_timeout_ms, to_string(c.transport),
                     c.access_data ? "" : ", locks only (no record access)");
  out += fmt::format("  ranks {}: {} lock agent(s), {} transaction agent(s), {} node(s); {}\n", r.ranks,
                     r.lock_agents, r.txn_agents, r.nodes, workload_text(c, r));
  out += fmt::format("  committed {} in {:.3f} s: {:.0f} transactions/s", n.committed, m.seconds,
                     per_second(n.committed, m.seconds));
  out += r.load_seconds > 0 ? fmt::format(" (data loaded in {:.2f} s before)\n", r.load_seconds) : "\n";
  out += aborts_text(n);
  if (const auto per_minute = new_orders_per_minute(m, r.type_names)) {
    out += fmt::format("  new-order: {:.0f} per minute (rolled back by an unknown item included)\n", *per_minute);
  }
  if (r.type_names.size() > 1) out += types_text(m, r.type_names);
  out += fmt::format("  lock requests {}: {:.0f} /s; per committed transaction {:.2f} locks ({:.2f} released early) "
                     "at {:.2f} lock agents; 2PC in {:.2f}% of attempts\n",
                     n.lock_requests, per_second(n.lock_requests, m.seconds), ratio(n.locks_in_committed, n.committed),
                     ratio(n.short_locks_in_committed, n.committed), ratio(n.agents_in_committed, n.committed),
                     100 * ratio(n.votes, n.attempts()));
  if (c.workload != WorkloadKind::synthetic) {
    // The thesis's TPC-C traces (Sec. 5.4.2-5.4.3), to compare with.
    out += "    (thesis, TPC-C traces: 53.2 locks serializable, 27.9 read committed, at 1.1 lock agents; "
           "88% of the time locking)\n";
  }
  const TimeSplit split = time_split(n);
  out += fmt::format("  time of the transaction agents: locking {:.1f}%, data access and program {:.1f}%, 2PC vote "
                     "{:.1f}%, end of transaction {:.1f}%\n",
                     100 * split.locking, 100 * split.data, 100 * split.vote, 100 * split.end);
  out += "  latency, microseconds (median / mean / p99):\n";
  out += fmt::format("    lock round trip      {}\n", latency_text(m.round_trip));
  out += fmt::format("      queueing at agent  {}\n", latency_text(m.queueing));
  out += fmt::format("      agent processing   {}\n", latency_text(m.service));
  out += fmt::format("    2PC vote             {}\n", latency_text(m.vote));
  out += fmt::format("    committed txn        {}\n", latency_text(m.transaction));
  out += fmt::format("    transport ping       {} (same node), {} (other node)\n", latency_text(m.ping_local),
                     latency_text(m.ping_remote));
  if (m.ping_local.count() + m.ping_remote.count() > 0 && n.committed > 0) {
    const LockModelSetting s = model_setting_of(c, r);
    const double predicted = transaction_throughput(s);
    out += fmt::format("  model (Eqs. 5.1-5.4; one-way {:.2f}/{:.2f} us local/remote, queueing {:.2f} us, vote {:.2f} us): "
                       "t_tx {:.2f} us, {:.0f} transactions/s; measured/model {:.2f}{}\n",
                       s.local_comm * 1e6, s.remote_comm * 1e6, s.queueing * 1e6, s.vote * 1e6,
                       transaction_time(s) * 1e6, predicted, per_second(n.committed, m.seconds) / predicted,
                       c.access_data ? " (the model leaves out record access)" : "");
  }
  if (n.rollbacks > 0) out += fmt::format("  writes undone: {} attempt(s) rolled back from their undo logs\n", n.rollbacks);
  return out + checks_text(c, r);
}

nlohmann::ordered_json txn_report_json(const TxnOptions& o, const TxnEngineConfig& c, const TxnRunResult& r) {
  const TxnMetrics& m = r.metrics;
  const TxnCounters& n = m.counters;
  nlohmann::ordered_json j;
  j["workload"] = to_string(c.workload);
  j["transport"] = to_string(c.transport);
  j["isolation"] = to_string(c.isolation);
  j["cc"] = to_string(c.policy);
  j["lock_timeout_ms"] = o.lock_timeout_ms;
  j["ranks"] = r.ranks;
  j["lock_agents"] = r.lock_agents;
  j["txn_agents"] = r.txn_agents;
  j["nodes"] = r.nodes;
  j["partitions"] = r.partitions;
  if (c.workload == WorkloadKind::synthetic) {
    j["locks_per_txn"] = c.locks_per_txn;
    j["remote_probability"] = c.remote_probability;
  }
  j["record_access"] = c.access_data;
  j["retries"] = c.retries;
  j["seconds"] = m.seconds;
  j["load_seconds"] = r.load_seconds;
  j["committed"] = n.committed;
  j["rolled_back"] = n.rolled_back;
  j["given_up"] = n.given_up;
  j["attempts"] = n.attempts();
  j["aborted"] = n.aborted();
  j["aborted_by_lock"] = n.aborted_by_lock();
  j["aborted_by_vote"] = n.aborted_by_vote;
  j["aborts_by_cause"] = {{"lock_timeout", n.aborted_by_timeout},
                          {"no_wait_conflict", n.aborted_by_no_wait},
                          {"wait_die", n.aborted_by_wait_die},
                          {"no_vote", n.aborted_by_vote}};
  j["abort_rate"] = ratio(n.aborted(), n.attempts());
  j["transactions_per_second"] = per_second(n.committed, m.seconds);
  if (const auto per_minute = new_orders_per_minute(m, r.type_names)) j["new_orders_per_minute"] = *per_minute;
  j["lock_requests"] = n.lock_requests;
  j["lock_requests_per_second"] = per_second(n.lock_requests, m.seconds);
  j["locks_per_committed_txn"] = ratio(n.locks_in_committed, n.committed);
  j["short_locks_per_committed_txn"] = ratio(n.short_locks_in_committed, n.committed);
  j["lock_agents_per_committed_txn"] = ratio(n.agents_in_committed, n.committed);
  j["two_phase_commits"] = n.votes;
  j["two_phase_commit_share"] = ratio(n.votes, n.attempts());
  j["rollbacks"] = n.rollbacks;
  j["record_reads"] = n.record_reads;
  j["record_writes"] = n.record_writes;
  const TimeSplit split = time_split(n);
  j["time_split"] = {{"locking", split.locking}, {"data_and_program", split.data}, {"vote", split.vote},
                     {"end", split.end}, {"backoff_seconds", static_cast<double>(n.backoff_ns) * 1e-9}};
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  for (std::size_t t = 0; t < r.type_names.size(); ++t) {
    const TypeCounters& tc = m.types[t];
    types[r.type_names[t]] = {{"committed", tc.committed},
                              {"transactions_per_second", per_second(tc.committed, m.seconds)},
                              {"rolled_back", tc.rolled_back},
                              {"aborted", tc.aborted},
                              {"given_up", tc.given_up},
                              {"locks_per_committed_txn", ratio(tc.locks_in_committed, tc.committed)},
                              {"short_locks_per_committed_txn", ratio(tc.short_locks_in_committed, tc.committed)},
                              {"lock_agents_per_committed_txn", ratio(tc.agents_in_committed, tc.committed)},
                              {"two_phase_commits", tc.votes},
                              {"latency", latency_json(m.type_latency[t])}};
  }
  j["types"] = types;
  j["latency"] = {{"lock_round_trip", latency_json(m.round_trip)},
                  {"lock_queueing", latency_json(m.queueing)},
                  {"lock_processing", latency_json(m.service)},
                  {"vote", latency_json(m.vote)},
                  {"committed_transaction", latency_json(m.transaction)},
                  {"ping_same_node", latency_json(m.ping_local)},
                  {"ping_other_node", latency_json(m.ping_remote)}};
  if (m.ping_local.count() + m.ping_remote.count() > 0 && n.committed > 0) {
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
  if (r.conditions) {
    nlohmann::ordered_json conditions = nlohmann::ordered_json::array();
    for (const ConditionResult& cond : *r.conditions) {
      conditions.push_back({{"name", cond.name},
                            {"checked", cond.checked},
                            {"violations", cond.violations},
                            {"first_violation", cond.first_violation}});
    }
    j["consistency"] = conditions;
  }
  return j;
}

}  // namespace hpcdb
