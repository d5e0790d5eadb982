#include "hpcdb/join/broadcast/udp_broadcast_stream.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <exception>

#include <fmt/format.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

// Phases in a row that only resend before the turn is given up: the
// broadcasts do not reach some rank.
constexpr std::uint64_t kMostResendOnlyPhases = 2000;

enum class TurnState : std::uint64_t { more, done, unreachable };

std::string broadcast_address(const Cluster& cluster, const std::string& configured) {
  if (!configured.empty()) return configured;
  if (cluster.node_count() == 1) return "127.255.255.255";
  const std::string found = interface_broadcast_address();
  if (found.empty()) throw UsageError("no network interface can broadcast; give the address with --udp-broadcast");
  return found;
}

}  // namespace

std::size_t UdpBroadcastStream::datagram_values(std::size_t value_bytes) {
  return (kMaxUdpPayload - sizeof(Header)) / value_bytes;
}

UdpBroadcastStream::UdpBroadcastStream(const Cluster& cluster, const UdpBroadcastConfig& config,
                                       const std::vector<std::uint64_t>& fragments, std::size_t value_bytes,
                                       std::size_t batch_values)
    : cluster_(cluster),
      config_(config),
      comm_(cluster.world()),
      value_bytes_(value_bytes),
      per_datagram_(datagram_values(value_bytes)),
      batch_values_(std::max(batch_values, per_datagram_)),
      fragments_(fragments),
      datagram_(kMaxUdpPayload),
      batch_(batch_values_ * value_bytes, Prefault::yes),
      faults_(config.seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(cluster.rank() + 1))) {
  if (config.phase_packets == 0) throw UsageError("--udp-phase must be at least 1 datagram");
  if (!(config.loss >= 0 && config.loss < 1) || !(config.duplicates >= 0 && config.duplicates <= 1)) {
    throw UsageError("--udp-loss must be in [0, 1) and --udp-duplicates in [0, 1]");
  }
  // Room for a few phases of datagrams while the rank joins a batch.
  const std::size_t buffer = std::size_t{4} * config.phase_packets * kMaxUdpPayload;
  std::uint64_t agreed[2] = {config.port, std::random_device{}()};
  std::exception_ptr failure;
  try {
    if (cluster.rank() == 0) {
      socket_ = std::make_unique<UdpSocket>(config.port, buffer);
      agreed[0] = socket_->port();
    }
  } catch (...) {
    failure = std::current_exception();
  }
  agree_on_failure(cluster.world(), failure);
  MPI_Bcast(agreed, 2, MPI_UINT64_T, 0, cluster.world());
  job_ = static_cast<std::uint32_t>(agreed[1]);
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) socket_ = std::make_unique<UdpSocket>(static_cast<std::uint16_t>(agreed[0]), buffer);
    target_ = ipv4_address(broadcast_address(cluster, config.address), socket_->port());
  });
  config_.port = socket_->port();
}

std::string UdpBroadcastStream::address() const {
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &target_.sin_addr, text, sizeof text);
  return fmt::format("{}:{}", text, config_.port);
}

UdpBroadcastStats UdpBroadcastStream::take_stats() { return std::exchange(stats_, UdpBroadcastStats{}); }

std::uint64_t UdpBroadcastStream::datagrams_of(int owner) const {
  const std::uint64_t values = fragments_[static_cast<std::size_t>(owner)];
  return (values + per_datagram_ - 1) / per_datagram_;
}

void UdpBroadcastStream::run(const Encoder& encode, const Consumer& consume) {
  ++pass_;
  batch_fill_ = 0;
  bytes_sent_ = 0;
  const int ranks = cluster_.size();
  for (int owner = 0; owner < ranks; ++owner) {
    const bool last_turn = owner == ranks - 1;
    if (owner == cluster_.rank()) serve(encode, consume, last_turn);
    else listen(owner, consume, last_turn);
  }
}

void UdpBroadcastStream::send_datagram(const Encoder& encode, std::uint64_t id, bool resend) {
  const std::uint64_t first = id * per_datagram_;
  const std::size_t count = static_cast<std::size_t>(
      std::min<std::uint64_t>(per_datagram_, fragments_[static_cast<std::size_t>(cluster_.rank())] - first));
  const Header header{job_, static_cast<std::uint16_t>(cluster_.rank()), pass_, id};
  std::memcpy(datagram_.data(), &header, sizeof header);
  encode(static_cast<std::size_t>(first), count, datagram_.data() + sizeof header);
  const std::span<const std::byte> bytes(datagram_.data(), sizeof header + count * value_bytes_);
  if (resend) ++stats_.resent;
  else ++stats_.datagrams;
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  if (config_.loss > 0 && coin(faults_) < config_.loss) {
    ++stats_.dropped_on_purpose;
    return;
  }
  const int copies = config_.duplicates > 0 && coin(faults_) < config_.duplicates ? 2 : 1;
  for (int c = 0; c < copies; ++c) socket_->send_to(target_, bytes);
  bytes_sent_ += bytes.size();
}

void UdpBroadcastStream::stash(std::span<const std::byte> values, const Consumer& consume) {
  const std::size_t n = values.size() / value_bytes_;
  if (batch_fill_ + n > batch_values_) {
    consume({static_cast<std::byte*>(batch_.data()), batch_fill_ * value_bytes_}, false);
    batch_fill_ = 0;
  }
  std::memcpy(static_cast<std::byte*>(batch_.data()) + batch_fill_ * value_bytes_, values.data(), values.size());
  batch_fill_ += n;
}

void UdpBroadcastStream::take_waiting(int owner, const Consumer& consume) {
  const bool listening = owner != cluster_.rank();
  for (;;) {
    const std::size_t got = socket_->receive(datagram_);
    if (got == 0) return;
    if (!listening || got < sizeof(Header)) continue;  // the rank's own broadcasts, or not ours
    Header header{};
    std::memcpy(&header, datagram_.data(), sizeof header);
    if (header.job != job_ || header.pass != pass_ || header.owner != owner || header.id >= received_.size()) {
      continue;  // another job's, or stale
    }
    const std::size_t values = (got - sizeof header) / value_bytes_;
    const std::uint64_t first = header.id * per_datagram_;
    const std::uint64_t expected = std::min<std::uint64_t>(per_datagram_, fragments_[static_cast<std::size_t>(owner)] - first);
    if (values != expected) continue;  // truncated or foreign
    if (received_[header.id]) {
      ++stats_.duplicates_seen;
      continue;
    }
    received_[header.id] = true;
    ++received_count_;
    stash({datagram_.data() + sizeof header, values * value_bytes_}, consume);
  }
}

bool UdpBroadcastStream::drain(int owner, std::uint64_t upto, const Consumer& consume) {
  for (;;) {
    take_waiting(owner, consume);
    if (received_count_ == upto) return true;
    if (!socket_->wait(config_.quiet_ms)) return false;
  }
}

void UdpBroadcastStream::complete(MPI_Request& request, int owner, const Consumer& consume,
                                  const std::function<bool()>& spare_work) {
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    take_waiting(owner, consume);
    if (spare_work && spare_work()) continue;
    socket_->wait(1);
  }
}

void UdpBroadcastStream::serve(const Encoder& encode, const Consumer& consume, bool last_turn) {
  const int me = cluster_.rank();
  const int ranks = cluster_.size();
  const std::uint64_t total = datagrams_of(me);
  const std::uint64_t own_values = fragments_[static_cast<std::size_t>(me)];
  std::uint64_t own_next = 0;  // own values joined so far
  auto join_own_batch = [&] {
    const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(batch_values_, own_values - own_next));
    encode(static_cast<std::size_t>(own_next), count, static_cast<std::byte*>(batch_.data()));
    own_next += count;
    consume({static_cast<std::byte*>(batch_.data()), count * value_bytes_}, last_turn && own_next == own_values);
  };
  // The batch holds other ranks' values: they go first.
  if (batch_fill_ > 0) {
    consume({static_cast<std::byte*>(batch_.data()), batch_fill_ * value_bytes_}, false);
    batch_fill_ = 0;
  }
  std::vector<std::uint64_t> resend;
  std::uint64_t next_new = 0, resend_only = 0;
  for (;;) {
    ++stats_.phases;
    if (ranks > 1) {
      for (std::uint64_t id : resend) send_datagram(encode, id, true);
      for (std::size_t k = resend.size(); k < config_.phase_packets && next_new < total; ++k) {
        send_datagram(encode, next_new++, false);
      }
    } else {
      next_new = total;  // nobody to send to
    }
    if (own_next < own_values) join_own_batch();  // while the datagrams travel
    // Non-blocking like the listeners' (the two kinds do not match).
    std::uint64_t upto = next_new;
    MPI_Request announced = MPI_REQUEST_NULL;
    MPI_Ibcast(&upto, 1, MPI_UINT64_T, me, comm_.get(), &announced);
    MPI_Wait(&announced, MPI_STATUS_IGNORE);
    take_waiting(me, consume);  // its own broadcasts, looped back
    int none = 0;
    std::vector<int> counts(static_cast<std::size_t>(ranks));
    MPI_Request gathered = MPI_REQUEST_NULL;
    MPI_Igather(&none, 1, MPI_INT, counts.data(), 1, MPI_INT, me, comm_.get(), &gathered);
    complete(gathered, me, consume, [&] {
      if (own_next == own_values) return false;
      join_own_batch();
      return true;
    });
    std::vector<int> offsets(counts.size(), 0);
    for (std::size_t r = 1; r < counts.size(); ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
    std::vector<std::uint64_t> lacking(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Gatherv(nullptr, 0, MPI_UINT64_T, lacking.data(), counts.data(), offsets.data(), MPI_UINT64_T, me, comm_.get());
    std::sort(lacking.begin(), lacking.end());
    lacking.erase(std::unique(lacking.begin(), lacking.end()), lacking.end());
    resend = std::move(lacking);
    resend_only = next_new == total && !resend.empty() ? resend_only + 1 : 0;
    std::uint64_t state[2] = {static_cast<std::uint64_t>(TurnState::more), 0};
    if (next_new == total && resend.empty()) state[0] = static_cast<std::uint64_t>(TurnState::done);
    if (resend_only > kMostResendOnlyPhases) {
      state[0] = static_cast<std::uint64_t>(TurnState::unreachable);
      for (std::size_t r = 0; r < counts.size(); ++r) {
        if (counts[r] > 0) {
          state[1] = r;
          break;
        }
      }
    }
    MPI_Bcast(state, 2, MPI_UINT64_T, me, comm_.get());
    if (state[0] == static_cast<std::uint64_t>(TurnState::done)) break;
    if (state[0] == static_cast<std::uint64_t>(TurnState::unreachable)) {
      throw Error(fmt::format("UDP broadcasts from rank {} to {} do not reach rank {}: are all ranks on one network "
                              "segment that allows broadcasts?",
                              me, address(), state[1]));
    }
  }
  while (own_next < own_values) join_own_batch();
  if (last_turn && own_values == 0) consume({}, true);
}

void UdpBroadcastStream::listen(int owner, const Consumer& consume, bool last_turn) {
  const std::uint64_t total = datagrams_of(owner);
  received_.assign(static_cast<std::size_t>(total), false);
  received_count_ = 0;
  for (;;) {
    ++stats_.phases;
    std::uint64_t upto = 0;
    MPI_Request announced = MPI_REQUEST_NULL;
    MPI_Ibcast(&upto, 1, MPI_UINT64_T, owner, comm_.get(), &announced);
    complete(announced, owner, consume, nullptr);
    std::vector<std::uint64_t> lacking;
    if (!drain(owner, upto, consume)) {
      // A bounded list: whatever is left is asked for in the next phase.
      const std::size_t most = std::size_t{4} * config_.phase_packets;
      for (std::uint64_t id = 0; id < upto && lacking.size() < most; ++id) {
        if (!received_[id]) lacking.push_back(id);
      }
    }
    const int count = static_cast<int>(lacking.size());
    MPI_Request gathered = MPI_REQUEST_NULL;  // non-blocking like the server's
    MPI_Igather(&count, 1, MPI_INT, nullptr, 0, MPI_INT, owner, comm_.get(), &gathered);
    MPI_Wait(&gathered, MPI_STATUS_IGNORE);
    MPI_Gatherv(lacking.data(), count, MPI_UINT64_T, nullptr, nullptr, nullptr, MPI_UINT64_T, owner, comm_.get());
    std::uint64_t state[2] = {0, 0};
    MPI_Bcast(state, 2, MPI_UINT64_T, owner, comm_.get());
    if (state[0] == static_cast<std::uint64_t>(TurnState::done)) break;
    if (state[0] == static_cast<std::uint64_t>(TurnState::unreachable)) {
      throw Error(fmt::format("UDP broadcasts from rank {} to {} do not reach rank {}: are all ranks on one network "
                              "segment that allows broadcasts?",
                              owner, address(), state[1]));
    }
  }
  if (last_turn) {
    consume({static_cast<std::byte*>(batch_.data()), batch_fill_ * value_bytes_}, true);
    batch_fill_ = 0;
  }
}

}  // namespace hpcdb
