#include "hpcdb/txn/message_lock_channel.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

MessageLockChannel::MessageLockChannel(MessageTransport& transport, const TxnEngineConfig& config, int rank,
                                       std::uint64_t start_ns, std::vector<int> lock_agents)
    : transport_(transport), config_(config), rank_(rank), start_ns_(start_ns), lock_agents_(std::move(lock_agents)) {}

TxnMessage MessageLockChannel::await(int from, TxnMessageType type) {
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
    // As often as an idle poll may yield its CPU (every 64th on an
    // oversubscribed node): on a loaded machine 1024 polls took seconds.
    if ((spins & 63) == 0) {
      const std::uint64_t now = monotonic_ns();
      config_.failure.fire_if_due(rank_, seconds_between_ns(start_ns_, now));
      keep_alive(now);
      if (now > deadline) {
        throw Error(fmt::format("lock agent rank {} did not answer within {:g} s: it has probably died or hangs", from,
                                static_cast<double>(config_.reply_timeout_ns) * 1e-9));
      }
    }
  }
}

void MessageLockChannel::keep_alive(std::uint64_t now_ns) {
  if (now_ns < next_keep_alive_ns_) return;
  next_keep_alive_ns_ = now_ns + keep_alive_interval_ns();
  TxnMessage m;
  m.type = TxnMessageType::keep_alive;
  for (int agent : lock_agents_) {
    // A lock agent that takes no messages has stopped: this agent notices when it waits for it.
    if (transport_.can_send_without_waiting(agent)) send_message(transport_, agent, m);
  }
}

void MessageLockChannel::send_to(int agent, const TxnMessage& m) {
  const std::uint64_t deadline = monotonic_ns() + config_.reply_timeout_ns;
  for (unsigned spins = 1; !transport_.can_send_without_waiting(agent); ++spins) {
    if ((spins & 63) != 0) continue;
    const std::uint64_t now = monotonic_ns();
    config_.failure.fire_if_due(rank_, seconds_between_ns(start_ns_, now));
    keep_alive(now);
    if (now > deadline) {
      throw Error(fmt::format("lock agent rank {} has taken none of this transaction agent's messages for {:g} s: it "
                              "has probably died or hangs",
                              agent, static_cast<double>(config_.reply_timeout_ns) * 1e-9));
    }
  }
  send_message(transport_, agent, m);
}

LockAnswer MessageLockChannel::acquire(int agent_rank, TxnId txn, LockId lock, LockMode mode) {
  TxnMessage request;
  request.type = TxnMessageType::lock_request;
  request.txn = txn;
  request.lock = lock;
  request.mode = mode;
  send_to(agent_rank, request);
  const TxnMessage reply = await(agent_rank, TxnMessageType::lock_reply);
  if (reply.txn != txn || reply.lock != lock) {
    throw Error("lock agent rank " + std::to_string(agent_rank) + " answered for another request");
  }
  if (config_.failure.on(rank_)) {  // with the lock, if granted
    config_.failure.fire_if_due(rank_, seconds_between_ns(start_ns_, monotonic_ns()));
  }
  return {reply.granted != 0, reply.mode, reply.reason};
}

void MessageLockChannel::release(int agent_rank, TxnId txn, LockId lock) {
  TxnMessage m;
  m.type = TxnMessageType::release;
  m.txn = txn;
  m.lock = lock;
  send_to(agent_rank, m);
}

bool MessageLockChannel::vote(TxnId txn, std::span<const int> participants) {
  const std::uint32_t slot = votes_taken_++ % transport_.vote_slots();
  transport_.reset_votes(slot);
  TxnMessage request;
  request.type = TxnMessageType::vote_request;
  request.txn = txn;
  request.vote_slot = slot;
  for (int agent : participants) send_to(agent, request);
  const std::uint64_t t0 = monotonic_ns();
  for (;;) {
    if (auto e = transport_.poll()) {
      throw Error("transaction agent (rank " + std::to_string(rank_) + ") got a message from rank " +
                  std::to_string(e->origin) + " while collecting votes");
    }
    const VoteTally tally = transport_.votes(slot);
    if (tally.yes + tally.no >= participants.size()) return tally.no == 0;
    const std::uint64_t now = monotonic_ns();
    if (now - t0 > config_.vote_timeout_ns) return false;  // a silent participant counts as no
    keep_alive(now);
  }
}

void MessageLockChannel::end(TxnId txn, std::span<const int> contacted, bool commit) {
  TxnMessage m;
  m.type = TxnMessageType::end_of_txn;
  m.txn = txn;
  m.commit = commit ? 1 : 0;
  for (int agent : contacted) send_to(agent, m);
}

}  // namespace hpcdb
