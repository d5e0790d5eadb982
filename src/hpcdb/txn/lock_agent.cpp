#include "hpcdb/txn/lock_agent.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/progress_observer.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {
namespace {
constexpr std::uint64_t kSweepIntervalNs = 1'000'000;  // bounded-wait timeouts are checked every millisecond
}

LockAgent::LockAgent(MessageTransport& transport, const AgentRoles& roles, const LockSpace& space,
                     const TxnEngineConfig& config, int rank)
    : transport_(transport),
      roles_(roles),
      config_(config),
      rank_(rank),
      table_(space.first_lock_of(roles.lock_agent_index(rank)),
             space.end_lock_of(roles.lock_agent_index(rank)) - space.first_lock_of(roles.lock_agent_index(rank)),
             config.policy, config.lock_timeout_ns),
      rng_(agent_rng_seed(config.seed, static_cast<std::uint64_t>(rank))),
      peers_(roles.txn_agents().size() + roles.lock_agents().size()) {}

TxnMetrics LockAgent::run() {
  start_ns_ = monotonic_ns();
  for (int agent : roles_.txn_agents()) peers_[static_cast<std::size_t>(agent)].last_heard_ns = start_ns_;
  std::uint64_t next_sweep = start_ns_ + kSweepIntervalNs;
  unsigned loops = 0;
  bool handled = false;  // since the last sweep
  while (agents_done_ < roles_.txn_agents().size()) {
    if (auto e = transport_.poll()) {
      handle(*e);
      handled = true;
    }
    // Reading the clock costs as much as a poll: look at it now and then.
    if ((++loops & 63) != 0) continue;
    const std::uint64_t now = monotonic_ns();
    if (now >= next_sweep) {
      if (table_.pending_locks() > 0) answer_deferred(table_.expire(now));
      next_sweep = now + kSweepIntervalNs;
      if (handled) report_progress();  // to a watchdog, if one looks after the job
      handled = false;
      check_liveness(now);
      config_.failure.fire_if_due(rank_, seconds_between_ns(start_ns_, now));
    }
  }
  return metrics_;  // its time does not count: throughput is over the transaction agents' time
}

std::vector<int> LockAgent::silent_agents(std::uint64_t now_ns, bool holding_locks) const {
  std::vector<int> silent;
  for (int agent : roles_.txn_agents()) {
    const Peer& p = peers_[static_cast<std::size_t>(agent)];
    if (p.done || now_ns - p.last_heard_ns < config_.reply_timeout_ns) continue;
    if (p.in_transaction == holding_locks) silent.push_back(agent);
  }
  return silent;
}

void LockAgent::check_liveness(std::uint64_t now_ns) const {
  const double timeout = static_cast<double>(config_.reply_timeout_ns) * 1e-9;
  // A transaction agent that has not finished talks to every lock agent at
  // least every --reply-timeout / 4 (keep-alives, whatever it is doing).
  if (const auto silent = silent_agents(now_ns, true); !silent.empty()) {
    throw Error(fmt::format("transaction agent rank {} holds locks at lock agent rank {} but has sent nothing for {:g} s "
                            "(--reply-timeout): it has probably stopped or hangs",
                            fmt::join(silent, ", "), rank_, timeout));
  }
  if (const auto silent = silent_agents(now_ns, false); !silent.empty()) {
    throw Error(fmt::format("transaction agent rank {} has sent nothing to lock agent rank {} for {:g} s "
                            "(--reply-timeout) although it had not finished: it has probably stopped or hangs",
                            fmt::join(silent, ", "), rank_, timeout));
  }
}

void LockAgent::handle(const Envelope& e) {
  const std::uint64_t arrived = monotonic_ns();
  Peer& peer = peers_[static_cast<std::size_t>(e.origin)];
  peer.last_heard_ns = arrived;
  const TxnMessage m = message_in(e);
  switch (m.type) {
    case TxnMessageType::lock_request:
      peer.in_transaction = true;
      on_lock_request(e.origin, m, arrived);
      return;
    case TxnMessageType::release:
      answer_deferred(table_.release(m.txn, m.lock));
      return;
    case TxnMessageType::vote_request: {
      const bool injected_no = config_.vote_no_probability > 0 &&
                               std::bernoulli_distribution(config_.vote_no_probability)(rng_);
      transport_.cast_vote(e.origin, m.vote_slot, table_.knows(m.txn) && !injected_no);
      return;
    }
    case TxnMessageType::end_of_txn:
      peer.in_transaction = false;
      peer.queued = false;
      on_end_of_txn(m);
      return;
    case TxnMessageType::keep_alive:
      return;
    case TxnMessageType::ping: {
      TxnMessage pong = m;
      pong.type = TxnMessageType::pong;
      send_message(transport_, e.origin, pong);
      return;
    }
    case TxnMessageType::agent_done:
      peer.done = true;
      ++agents_done_;
      return;
    default:
      throw Error("lock agent (rank " + std::to_string(rank_) + ") got an unexpected message of type " +
                  std::to_string(static_cast<int>(m.type)) + " from rank " + std::to_string(e.origin));
  }
}

void LockAgent::on_lock_request(int origin, const TxnMessage& m, std::uint64_t arrived_ns) {
  const auto reply = table_.request(m.txn, origin, m.lock, m.mode, arrived_ns);
  const std::uint64_t service = monotonic_ns() - arrived_ns;
  if (reply) {
    answer(*reply, 0, service);
  } else {
    waiting_[m.txn] = {arrived_ns, service};
    peers_[static_cast<std::size_t>(origin)].queued = true;
  }
}

void LockAgent::on_end_of_txn(const TxnMessage& m) {
  waiting_.erase(m.txn);
  answer_deferred(table_.release_all(m.txn));
}

void LockAgent::answer(const LockReply& reply, std::uint64_t queued_ns, std::uint64_t service_ns) {
  TxnMessage out;
  out.type = TxnMessageType::lock_reply;
  out.txn = reply.txn;
  out.lock = reply.lock;
  out.mode = reply.mode;
  out.granted = reply.granted ? 1 : 0;
  out.reason = reply.reason;
  out.queued_ns = static_cast<std::uint32_t>(std::min<std::uint64_t>(queued_ns, UINT32_MAX));
  out.service_ns = static_cast<std::uint32_t>(std::min<std::uint64_t>(service_ns, UINT32_MAX));
  send_message(transport_, reply.agent, out);
  metrics_.queueing.add(queued_ns);
  metrics_.service.add(service_ns);
}

void LockAgent::answer_deferred(const std::vector<LockReply>& replies) {
  const std::uint64_t now = monotonic_ns();
  for (const LockReply& r : replies) {
    const auto w = waiting_.find(r.txn);
    if (w == waiting_.end()) throw Error("lock agent answered a request it never queued");
    answer(r, now - w->second.arrived_ns, w->second.service_ns);
    waiting_.erase(w);
    peers_[static_cast<std::size_t>(r.agent)].queued = false;
  }
}

}  // namespace hpcdb
