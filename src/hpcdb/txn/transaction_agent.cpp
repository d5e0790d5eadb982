#include "hpcdb/txn/transaction_agent.hpp"

#include <algorithm>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/progress_observer.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {
namespace {

constexpr int kAgentBits = 20;  // transaction ids: microseconds since start, then the agent index

TransactionSettings settings_of(const TxnEngineConfig& config) {
  TransactionSettings s;
  s.isolation = config.isolation;
  s.record_history = config.record_history;
  s.record_grants = !config.trace_out_dir.empty();
  return s;
}

}  // namespace

TransactionAgent::TransactionAgent(MessageTransport& transport, DataAccess& data, const AgentRoles& roles,
                                   const LockSpace& space, const WorkloadDefinition& workload,
                                   const TxnEngineConfig& config, int rank)
    : transport_(transport),
      roles_(roles),
      config_(config),
      rank_(rank),
      index_(roles.txn_agent_index(rank)),
      start_ns_(monotonic_ns()),
      channel_(transport, config, rank, start_ns_, roles.lock_agents()),
      txn_(channel_, data, space, settings_of(config), metrics_),
      source_(workload.source(SourceContext{config, roles, space, rank})),
      rng_(agent_rng_seed(config.seed, static_cast<std::uint64_t>(rank) + 1)) {}

TxnId TransactionAgent::next_txn_id(std::uint64_t now_ns) {
  // Ordered by start time across agents (wait-die compares ages), unique by the agent bits.
  TxnId id = (((now_ns - start_ns_) / 1000 + 1) << kAgentBits) | static_cast<TxnId>(index_);
  if (id <= last_id_) id = last_id_ + (TxnId{1} << kAgentBits);
  last_id_ = id;
  return id;
}

void TransactionAgent::calibrate() {
  const auto ping = [&](int agent_index, LatencyHistogram& into) {
    const int target = roles_.lock_agents()[static_cast<std::size_t>(agent_index)];
    TxnMessage m;
    m.type = TxnMessageType::ping;
    for (int i = 0; i < config_.calibration_pings; ++i) {
      const std::uint64_t t0 = monotonic_ns();
      send_message(transport_, target, m);
      channel_.await(target, TxnMessageType::pong);
      into.add(monotonic_ns() - t0);
    }
  };
  const auto local = roles_.local_lock_agents(rank_);
  const auto remote = roles_.remote_lock_agents(rank_);
  if (!local.empty()) ping(local.front(), metrics_.ping_local);
  if (!remote.empty()) ping(remote.front(), metrics_.ping_remote);
}

TxnMetrics TransactionAgent::run() {
  start_ns_ = monotonic_ns();
  calibrate();
  const std::uint64_t begin = monotonic_ns();
  const auto end = begin + static_cast<std::uint64_t>(config_.duration_seconds * 1e9);
  for (std::uint64_t n = 0;; ++n) {
    const std::uint64_t now = monotonic_ns();
    if (config_.transactions_per_agent > 0 ? n >= config_.transactions_per_agent : now >= end) break;
    channel_.keep_alive(now);
    run_transaction(source_->next(rng_));
    report_progress();  // to a watchdog, if one looks after the job
  }
  metrics_.seconds = static_cast<double>(monotonic_ns() - begin) * 1e-9;
  TxnMessage done;
  done.type = TxnMessageType::agent_done;
  for (int agent : roles_.lock_agents()) send_message(transport_, agent, done);
  return metrics_;
}

void TransactionAgent::run_transaction(const NextTransaction& next) {
  const std::uint64_t first_start = monotonic_ns();
  txn_.begin(next_txn_id(first_start));
  for (int retry = 0;; ++retry) {
    if (retry > 0) {
      pause_before_retry(retry);
      txn_.begin(txn_.id());
    }
    const std::uint64_t t0 = monotonic_ns();
    const AttemptEnd end = attempt(next);
    const std::uint64_t t1 = monotonic_ns();
    account(next, end, t1 - t0);
    if (end != AttemptEnd::aborted) {
      auto& latency = metrics_.type_latency[static_cast<std::size_t>(next.type)];
      latency.add(t1 - first_start);
      if (end == AttemptEnd::committed) metrics_.transaction.add(t1 - first_start);
      return;
    }
    if (retry >= config_.retries) {
      ++metrics_.counters.given_up;
      ++metrics_.types[static_cast<std::size_t>(next.type)].given_up;
      return;
    }
  }
}

TransactionAgent::AttemptEnd TransactionAgent::attempt(const NextTransaction& next) {
  ProgramEnd decision;
  try {
    decision = next.program->run(txn_);
  } catch (const AttemptAborted& denied) {
    txn_.roll_back();
    switch (denied.reason()) {
      case DenyReason::conflict:
        ++metrics_.counters.aborted_by_no_wait;
        break;
      case DenyReason::died:
        ++metrics_.counters.aborted_by_wait_die;
        break;
      default:
        ++metrics_.counters.aborted_by_timeout;
        break;
    }
    return AttemptEnd::aborted;
  }
  if (decision == ProgramEnd::roll_back) {
    txn_.roll_back();
    return AttemptEnd::rolled_back;
  }
  if (!txn_.commit()) {
    ++metrics_.counters.aborted_by_vote;
    return AttemptEnd::aborted;
  }
  if (config_.record_history) append_encoded(txn_.history(), history_);
  if (!config_.trace_out_dir.empty()) traced_.push_back({next.home, next.type, txn_.grants()});
  return AttemptEnd::committed;
}

void TransactionAgent::account(const NextTransaction& next, AttemptEnd end, std::uint64_t attempt_ns) {
  const AttemptSummary& s = txn_.summary();
  TxnCounters& c = metrics_.counters;
  TypeCounters& t = metrics_.types[static_cast<std::size_t>(next.type)];
  c.attempt_ns += attempt_ns;
  c.locking_ns += s.locking_ns;
  c.vote_ns += s.vote_ns;
  c.end_ns += s.end_ns;
  if (s.two_phase_commit) ++t.votes;
  switch (end) {
    case AttemptEnd::committed:
      ++c.committed;
      ++t.committed;
      c.locks_in_committed += s.lock_requests;
      t.locks_in_committed += s.lock_requests;
      c.short_locks_in_committed += s.early_releases;
      t.short_locks_in_committed += s.early_releases;
      c.agents_in_committed += s.agents;
      t.agents_in_committed += s.agents;
      break;
    case AttemptEnd::rolled_back:
      ++c.rolled_back;
      ++t.rolled_back;
      break;
    case AttemptEnd::aborted:
      ++t.aborted;
      break;
  }
}

void TransactionAgent::pause_before_retry(int retry) {
  const std::uint64_t cap = config_.backoff_ns << std::min(retry - 1, 10);
  const std::uint64_t pause = std::uniform_int_distribution<std::uint64_t>(0, 2 * cap)(rng_);
  metrics_.counters.backoff_ns += pause;
  // In slices, so that the lock agents keep hearing from this agent.
  const std::uint64_t until = monotonic_ns() + pause;
  for (std::uint64_t now = monotonic_ns(); now < until; now = monotonic_ns()) {
    config_.failure.fire_if_due(rank_, seconds_between_ns(start_ns_, now));
    channel_.keep_alive(now);
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(until - now, channel_.keep_alive_interval_ns())));
  }
}

}  // namespace hpcdb
