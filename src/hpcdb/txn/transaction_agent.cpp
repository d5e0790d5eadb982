#include "hpcdb/txn/transaction_agent.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/txn/fault_injection.hpp"

namespace hpcdb {
namespace {

constexpr int kAgentBits = 20;  // transaction ids: microseconds since start, then the agent index

bool reads(LockMode m) { return m == LockMode::S || m == LockMode::SIX || m == LockMode::X; }
bool is_read_lock(LockMode m) { return m == LockMode::IS || m == LockMode::S; }

}  // namespace

TransactionAgent::TransactionAgent(MessageTransport& transport, RecordStore& records, const AgentRoles& roles,
                                   const TxnEngineConfig& config, int rank)
    : transport_(transport),
      records_(records),
      roles_(roles),
      config_(config),
      rank_(rank),
      index_(roles.txn_agent_index(rank)),
      workload_(roles, rank, config.locks_per_txn, config.remote_probability),
      rng_(agent_rng_seed(config.seed, static_cast<std::uint64_t>(rank) + 1)) {
  seen_.resize(static_cast<std::size_t>(config.locks_per_txn));
  written_.resize(static_cast<std::size_t>(config.locks_per_txn));
}

TxnId TransactionAgent::next_txn_id(std::uint64_t now_ns) {
  // Ordered by start time across agents (wait-die compares ages), unique by the agent bits.
  TxnId id = (((now_ns - start_ns_) / 1000 + 1) << kAgentBits) | static_cast<TxnId>(index_);
  if (id <= last_id_) id = last_id_ + (TxnId{1} << kAgentBits);
  last_id_ = id;
  ++local_number_;
  return id;
}

TxnMessage TransactionAgent::await(int from, TxnMessageType type) {
  const std::uint64_t deadline = monotonic_ns() + config_.reply_timeout_ns;
  for (unsigned spins = 1;; ++spins) {
    if (auto e = transport_.poll()) {
      const TxnMessage m = message_in(*e);
      if (m.type != type || e->origin != from) {
        throw Error("transaction agent (rank " + std::to_string(rank_) + ") got an unexpected message of type " +
                    std::to_string(static_cast<int>(m.type)) + " from rank " + std::to_string(e->origin));
      }
      return m;
    }
    if ((spins & 1023) == 0) {
      const std::uint64_t now = monotonic_ns();
      fail_if_asked(config_, rank_, start_ns_, now);
      keep_alive(now, from);
      if (now > deadline) {
        throw Error(fmt::format("lock agent rank {} did not answer within {:g} s: it has probably died or hangs", from,
                                static_cast<double>(config_.reply_timeout_ns) * 1e-9));
      }
    }
  }
}

// Lock agents where this transaction holds locks end the job when it stays
// silent for --reply-timeout; a long wait elsewhere must not look like that.
void TransactionAgent::keep_alive(std::uint64_t now_ns, int waited_for) {
  if (now_ns < next_keep_alive_ns_) return;
  next_keep_alive_ns_ = now_ns + config_.reply_timeout_ns / 4;
  TxnMessage m;
  m.type = TxnMessageType::keep_alive;
  for (int agent : contacted_) {
    if (agent != waited_for) send_message(transport_, agent, m);
  }
}

void TransactionAgent::calibrate() {
  const auto ping = [&](int agent_index, LatencyHistogram& into) {
    const int target = roles_.lock_agents()[static_cast<std::size_t>(agent_index)];
    TxnMessage m;
    m.type = TxnMessageType::ping;
    for (int i = 0; i < config_.calibration_pings; ++i) {
      const std::uint64_t t0 = monotonic_ns();
      send_message(transport_, target, m);
      await(target, TxnMessageType::pong);
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
    if (config_.transactions_per_agent > 0 ? n >= config_.transactions_per_agent : monotonic_ns() >= end) break;
    const std::uint64_t t0 = monotonic_ns();
    switch (run_one(t0)) {
      case Outcome::committed:
        ++metrics_.counters.committed;
        metrics_.transaction.add(monotonic_ns() - t0);
        break;
      case Outcome::denied:
        ++metrics_.counters.aborted_by_lock;
        break;
      case Outcome::voted_out:
        ++metrics_.counters.aborted_by_vote;
        break;
    }
  }
  metrics_.seconds = static_cast<double>(monotonic_ns() - begin) * 1e-9;
  TxnMessage done;
  done.type = TxnMessageType::agent_done;
  for (int agent : roles_.lock_agents()) send_message(transport_, agent, done);
  return metrics_;
}

void TransactionAgent::note_contact(int lock_agent, std::vector<int>& list) {
  if (std::find(list.begin(), list.end(), lock_agent) == list.end()) list.push_back(lock_agent);
}

TransactionAgent::Outcome TransactionAgent::run_one(std::uint64_t begin_ns) {
  const TxnId txn = next_txn_id(begin_ns);
  workload_.next(rng_, plan_);
  contacted_.clear();
  writers_.clear();
  record_.id = txn;
  record_.reads.clear();
  record_.writes.clear();

  for (std::size_t i = 0; i < plan_.size(); ++i) {
    const PlannedLock& p = plan_[i];
    const int owner = roles_.owner_of(p.lock);
    note_contact(owner, contacted_);
    if (!acquire(txn, p, owner)) {
      finish(txn, false);
      return Outcome::denied;
    }
    if (p.mode == LockMode::X) note_contact(owner, writers_);
    if (config_.isolation == IsolationLevel::read_committed && is_read_lock(p.mode)) {
      if (p.mode == LockMode::S && records_.enabled()) {  // read under the short lock, then let it go
        records_.start_read(p.lock, &seen_[i]);
        records_.complete();
        ++metrics_.counters.record_reads;
        if (config_.record_history) record_.reads.push_back({p.lock, seen_[i].version});
      }
      TxnMessage release;
      release.type = TxnMessageType::release;
      release.txn = txn;
      release.lock = p.lock;
      send_message(transport_, owner, release);
    }
  }
  if (records_.enabled()) access_records(txn);
  if (writers_.size() > 1 && !vote(txn)) {
    finish(txn, false);
    return Outcome::voted_out;
  }
  finish(txn, true);
  metrics_.counters.locks_in_committed += plan_.size();
  metrics_.counters.agents_in_committed += contacted_.size();
  if (config_.record_history) append_encoded(record_, history_);
  return Outcome::committed;
}

bool TransactionAgent::acquire(TxnId txn, const PlannedLock& p, int owner) {
  TxnMessage request;
  request.type = TxnMessageType::lock_request;
  request.txn = txn;
  request.lock = p.lock;
  request.mode = p.mode;
  const std::uint64_t sent = monotonic_ns();
  send_message(transport_, owner, request);
  const TxnMessage reply = await(owner, TxnMessageType::lock_reply);
  if (reply.txn != txn || reply.lock != p.lock) {
    throw Error("lock agent rank " + std::to_string(owner) + " answered for another request");
  }
  ++metrics_.counters.lock_requests;
  const std::uint64_t now = monotonic_ns();
  metrics_.round_trip.add(now - sent);
  fail_if_asked(config_, rank_, start_ns_, now);  // with the lock, if granted
  return reply.granted != 0;
}

void TransactionAgent::access_records(TxnId txn) {
  // Every lock is held now: read what S, SIX and X cover (S is read already
  // under read committed, while its short lock was held) ...
  const auto read_now = [&](LockMode m) {
    return reads(m) && !(config_.isolation == IsolationLevel::read_committed && m == LockMode::S);
  };
  std::size_t started = 0;
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    if (!read_now(plan_[i].mode)) continue;
    records_.start_read(plan_[i].lock, &seen_[i]);
    ++started;
  }
  if (started == 0) return;
  records_.complete();
  metrics_.counters.record_reads += started;
  // ... then write a new version of every X-locked record.
  std::size_t writes = 0;
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    const PlannedLock& p = plan_[i];
    if (!read_now(p.mode)) continue;
    if (config_.record_history) record_.reads.push_back({p.lock, seen_[i].version});
    if (p.mode != LockMode::X) continue;
    written_[i] = Record{txn, seen_[i].value + 1};
    records_.write(p.lock, written_[i]);
    ++writes;
    if (config_.record_history) record_.writes.push_back({p.lock, seen_[i].version});
  }
  if (writes > 0) records_.complete();
  metrics_.counters.record_writes += writes;
}

bool TransactionAgent::vote(TxnId txn) {
  const auto slot = static_cast<std::uint32_t>(local_number_ % transport_.vote_slots());
  transport_.reset_votes(slot);
  const std::uint64_t t0 = monotonic_ns();
  TxnMessage request;
  request.type = TxnMessageType::vote_request;
  request.txn = txn;
  request.vote_slot = slot;
  for (int agent : writers_) send_message(transport_, agent, request);
  ++metrics_.counters.votes;
  for (;;) {
    if (auto e = transport_.poll()) {
      throw Error("transaction agent (rank " + std::to_string(rank_) + ") got a message from rank " +
                  std::to_string(e->origin) + " while collecting votes");
    }
    const VoteTally tally = transport_.votes(slot);
    const std::uint64_t now = monotonic_ns();
    if (tally.yes + tally.no >= writers_.size()) {
      metrics_.vote.add(now - t0);
      return tally.no == 0;
    }
    if (now - t0 > config_.vote_timeout_ns) return false;  // a silent participant counts as no
    keep_alive(now, -1);
  }
}

void TransactionAgent::finish(TxnId txn, bool commit) {
  TxnMessage end;
  end.type = TxnMessageType::end_of_txn;
  end.txn = txn;
  end.commit = commit ? 1 : 0;
  for (int agent : contacted_) send_message(transport_, agent, end);
}

}  // namespace hpcdb
