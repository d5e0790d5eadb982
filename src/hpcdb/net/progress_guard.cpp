#include "hpcdb/net/progress_guard.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <poll.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <random>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/interruption.hpp"
#include "hpcdb/core/standard_output.hpp"

namespace hpcdb {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kPhaseChars = 32;
// nonce, rank, flags, phases, progress, phase name
constexpr std::size_t kHeartbeatBytes = 8 + 4 + 4 + 8 + 8 + kPhaseChars;
constexpr std::uint32_t kFinished = 1;
constexpr std::uint32_t kSelfGuarded = 2;
// A stuck job: this many timeouts without progress on any rank.
constexpr double kStuckTimeouts = 5;

double seconds_between(Clock::time_point earlier, Clock::time_point later) {
  return std::chrono::duration<double>(later - earlier).count();
}

// This host's first IPv4 address that is up and not a loopback (network
// order), or 0: where peers on other nodes reach its watchdog.
std::uint32_t host_address() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return 0;
  std::uint32_t found = 0;
  for (const ifaddrs* i = list; i != nullptr && found == 0; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
    found = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
  }
  freeifaddrs(list);
  return found;
}

std::string rank_list(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
  }
  return text;
}

}  // namespace

ProgressGuard::ProgressGuard(const Cluster& cluster, ProgressGuardConfig config)
    : cluster_(cluster), config_(std::move(config)), start_(Clock::now()) {
  if (config_.observe_calling_thread) scope_.emplace(*this);
  if (cluster.size() == 1) return;
  socket_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in any{};
  any.sin_family = AF_INET;
  any.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t length = sizeof any;
  const bool bound = socket_ >= 0 && ::bind(socket_, reinterpret_cast<const sockaddr*>(&any), sizeof any) == 0 &&
                     ::getsockname(socket_, reinterpret_cast<sockaddr*>(&any), &length) == 0;
  // Every rank learns every watchdog's address, also when one could not open its socket.
  std::array<std::uint32_t, 3> mine{bound ? 1u : 0u, host_address(), bound ? any.sin_port : 0u};
  std::vector<std::uint32_t> all(3 * static_cast<std::size_t>(cluster.size()));
  MPI_Allgather(mine.data(), 3, MPI_UINT32_T, all.data(), 3, MPI_UINT32_T, cluster.world());
  if (cluster.rank() == 0) nonce_ = std::random_device{}() | (std::uint64_t{std::random_device{}()} << 32);
  MPI_Bcast(&nonce_, 1, MPI_UINT64_T, 0, cluster.world());
  for (int r = 0; r < cluster.size(); ++r) {
    if (all[3 * static_cast<std::size_t>(r)] == 0) {
      if (socket_ >= 0) ::close(socket_);
      socket_ = -1;
      return;  // unwatched rather than a false verdict: without sockets there is no watching
    }
  }
  const Clock::time_point now = Clock::now();
  peers_.resize(static_cast<std::size_t>(cluster.size()));
  for (int r = 0; r < cluster.size(); ++r) {
    Peer& p = peers_[static_cast<std::size_t>(r)];
    const bool same_node = cluster.node_rank_of(r) >= 0;
    p.address = same_node ? htonl(INADDR_LOOPBACK) : all[3 * static_cast<std::size_t>(r) + 1];
    p.port = static_cast<std::uint16_t>(all[3 * static_cast<std::size_t>(r) + 2]);
    p.last_heard = p.last_progress = now;
    p.phase = phase_;
  }
  watchdog_ = std::thread([this] { watch(); });
}

ProgressGuard::~ProgressGuard() {
  if (!watchdog_.joinable()) {
    if (socket_ >= 0) ::close(socket_);
    return;
  }
  stopping_.store(true);
  watchdog_.join();
  for (int i = 0; i < 3; ++i) send_heartbeats(true);  // finishing is not falling silent
  ::close(socket_);
}

void ProgressGuard::phase_started(const std::string& name) {
  fail_if_asked();
  {
    const std::lock_guard<std::mutex> lock(phase_mutex_);
    phase_ = name.substr(0, kPhaseChars - 1);
  }
  phases_.fetch_add(1, std::memory_order_relaxed);
}

void ProgressGuard::fail_if_asked() {
  if (!config_.failure.due(cluster_.rank(), seconds_between(start_, Clock::now()))) return;
  const InjectedFailure failure = config_.failure;
  config_.failure.mode = FailureMode::none;  // once
  failure.fire();
}

void ProgressGuard::watch() {
  const auto interval = std::chrono::duration<double>(config_.timeout_seconds / 4);
  Clock::time_point next_beat = Clock::now();
  while (!stopping_.load()) {
    const Clock::time_point now = Clock::now();
    if (now >= next_beat) {
      send_heartbeats(false);
      next_beat = now + std::chrono::duration_cast<Clock::duration>(interval);
    }
    pollfd p{socket_, POLLIN, 0};
    ::poll(&p, 1, 50);
    receive_heartbeats();
    judge(Clock::now());
  }
}

void ProgressGuard::send_heartbeats(bool finished) {
  std::array<char, kHeartbeatBytes> beat{};
  const auto rank = static_cast<std::uint32_t>(cluster_.rank());
  std::uint32_t flags = finished ? kFinished : 0;
  const std::uint64_t phases = phases_.load(std::memory_order_relaxed);
  const std::uint64_t progress = progress_.load(std::memory_order_relaxed);
  char* p = beat.data();
  {
    const std::lock_guard<std::mutex> lock(phase_mutex_);
    std::memcpy(p + 32, phase_.data(), std::min(phase_.size(), kPhaseChars - 1));
    if (!config_.self_guarded_phase.empty() && phase_ == config_.self_guarded_phase) flags |= kSelfGuarded;
  }
  std::memcpy(p, &nonce_, 8);
  std::memcpy(p + 8, &rank, 4);
  std::memcpy(p + 12, &flags, 4);
  std::memcpy(p + 16, &phases, 8);
  std::memcpy(p + 24, &progress, 8);
  for (int r = 0; r < cluster_.size(); ++r) {
    if (r == cluster_.rank()) continue;
    const Peer& peer = peers_[static_cast<std::size_t>(r)];
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = peer.address;
    to.sin_port = peer.port;
    // A full socket buffer drops the beat: the next one follows a quarter timeout later.
    (void)::sendto(socket_, beat.data(), beat.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
  }
}

void ProgressGuard::receive_heartbeats() {
  std::array<char, kHeartbeatBytes> beat{};
  const Clock::time_point now = Clock::now();
  for (;;) {
    const ssize_t got = ::recv(socket_, beat.data(), beat.size(), 0);
    if (got < 0) return;  // nothing more waiting
    std::uint64_t nonce = 0;
    std::uint32_t rank = 0;
    std::uint32_t flags = 0;
    std::uint64_t phases = 0;
    std::uint64_t progress = 0;
    std::memcpy(&nonce, beat.data(), 8);
    std::memcpy(&rank, beat.data() + 8, 4);
    if (got != static_cast<ssize_t>(kHeartbeatBytes) || nonce != nonce_ || rank >= peers_.size()) continue;
    std::memcpy(&flags, beat.data() + 12, 4);
    std::memcpy(&phases, beat.data() + 16, 8);
    std::memcpy(&progress, beat.data() + 24, 8);
    Peer& peer = peers_[rank];
    peer.heard = true;
    peer.last_heard = now;
    if (phases != peer.phases || progress != peer.progress) peer.last_progress = now;
    peer.phases = phases;
    peer.progress = progress;
    peer.phase.assign(beat.data() + 32, strnlen(beat.data() + 32, kPhaseChars - 1));
    peer.finished = peer.finished || (flags & kFinished) != 0;
    peer.self_guarded = (flags & kSelfGuarded) != 0;
  }
}

void ProgressGuard::judge(Clock::time_point now) {
  Peer& me = peers_[static_cast<std::size_t>(cluster_.rank())];
  const std::uint64_t phases = phases_.load(std::memory_order_relaxed);
  const std::uint64_t progress = progress_.load(std::memory_order_relaxed);
  if (phases != me.phases || progress != me.progress) me.last_progress = now;
  me.phases = phases;
  me.progress = progress;
  me.last_heard = now;
  me.heard = true;
  {
    const std::lock_guard<std::mutex> lock(phase_mutex_);
    me.phase = phase_;
  }

  const double timeout = config_.timeout_seconds;
  std::vector<int> named;
  std::string message;
  for (int r = 0; r < cluster_.size(); ++r) {
    const Peer& p = peers_[static_cast<std::size_t>(r)];
    if (p.heard && !p.finished && seconds_between(p.last_heard, now) >= silence_limit(p)) named.push_back(r);
  }
  warn_if_unheard(now);
  if (!named.empty()) {
    const Peer& first = peers_[static_cast<std::size_t>(named.front())];
    message = fmt::format("{} {} given no sign of life for {:g} s during the {} (last seen in its {} phase): stopped "
                          "(SIGSTOP, a frozen node) or cut off from the network; every rank ends ({})",
                          rank_list(named), named.size() == 1 ? "has" : "have", silence_limit(first),
                          config_.operation, first.phase, config_.timeout_option);
  } else {
    std::uint64_t ahead = 0;
    Clock::time_point latest_progress = start_;
    std::string ahead_phase;
    for (const Peer& p : peers_) {
      if (p.finished || !p.heard) continue;
      if (p.phases > ahead) {
        ahead = p.phases;
        ahead_phase = p.phase;
      }
      latest_progress = std::max(latest_progress, p.last_progress);
    }
    const double stalled = seconds_between(latest_progress, now);
    if (config_.judge_hangs && stalled >= kStuckTimeouts * timeout) {
      for (int r = 0; r < cluster_.size(); ++r) {
        const Peer& p = peers_[static_cast<std::size_t>(r)];
        if (p.heard && !p.finished && p.phases < ahead) named.push_back(r);
      }
    }
    if (!named.empty()) {
      message = fmt::format("{} made no progress for {:.0f} s in {} {} phase of the {} while the other ranks wait "
                            "in {}: {} (a livelock or a wait that never ends); every rank ends ({})",
                            rank_list(named), stalled, named.size() == 1 ? "its" : "their",
                            peers_[static_cast<std::size_t>(named.front())].phase, config_.operation, ahead_phase,
                            named.size() == 1 ? "it hangs" : "they hang", config_.timeout_option);
    }
  }
  if (named.empty()) {
    verdict_seen_ = false;
    return;
  }
  // The lowest rank that is neither named nor finished speaks for all.
  int speaker = -1;
  for (int r = 0; r < cluster_.size() && speaker < 0; ++r) {
    if (!peers_[static_cast<std::size_t>(r)].finished && std::find(named.begin(), named.end(), r) == named.end()) {
      speaker = r;
    }
  }
  if (speaker == cluster_.rank()) end_job(message, true);
  if (!verdict_seen_) {
    verdict_seen_ = true;
    verdict_since_ = now;
  } else if (seconds_between(verdict_since_, now) >= timeout) {
    end_job(message, true);  // the speaker could not end the job
  }
}

double ProgressGuard::silence_limit(const Peer& peer) const {
  return peer.self_guarded ? kSelfGuardedTimeouts * config_.timeout_seconds : config_.timeout_seconds;
}

void ProgressGuard::warn_if_unheard(Clock::time_point now) {
  if (unheard_reported_ || cluster_.rank() != 0 || seconds_between(start_, now) < 3 * config_.timeout_seconds) return;
  unheard_reported_ = true;
  std::vector<int> unheard;
  for (int r = 0; r < cluster_.size(); ++r) {
    if (!peers_[static_cast<std::size_t>(r)].heard && !peers_[static_cast<std::size_t>(r)].finished) unheard.push_back(r);
  }
  if (unheard.empty()) return;
  std::fprintf(stderr,
               "hpcdb: warning: no heartbeat has arrived from %s (UDP between the nodes blocked?): a rank that stops "
               "will not be noticed (%s)\n",
               rank_list(unheard).c_str(), config_.timeout_option.c_str());
  std::fflush(stderr);
}

void ProgressGuard::end_job(const std::string& message, bool print) const {
  if (print) {
    write_error_line("hpcdb: error: " + message);
    std::fflush(stderr);
  }
  remove_temporary_files_now();
  // mpirun ends every other rank when one exits with a failure code.
  ::_exit(1);
}

}  // namespace hpcdb
