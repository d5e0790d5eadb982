#pragma once
// A bounded wait for a whole operator run: no rank waits forever for a peer
// that has stopped (SIGSTOP, a node that froze) or hangs (a livelock).
// MPI's blocking calls have no timeout, so a watchdog thread on every rank
// exchanges heartbeats with its peers outside MPI (UDP datagrams, every
// quarter of the timeout) carrying the rank's progress: the operator's phase
// starts (core/progress_observer.hpp: PhaseClock reports them) and progress
// marks. Two verdicts end the job:
//
// - silent: a rank sent no heartbeat for `timeout` seconds: it has stopped
//   or its node is gone;
// - stuck: some ranks are at an earlier phase than others and no rank has
//   made progress for 5 x `timeout` seconds: the ranks ahead wait for those
//   behind, which hang.
//
// Every rank reaches the same verdict from the same heartbeats; the lowest
// rank not named prints one message naming the rank(s) and their phase,
// removes temporary output files and exits with code 1, upon which mpirun
// ends every rank (also the stopped one). The others follow after another
// timeout if that rank could not. A rank that leaves the guarded run says so
// in its last heartbeats, so that finishing early is not falling silent. A
// rank is judged only once its heartbeats have arrived: where a firewall
// drops them, rank 0 warns that stopped ranks will go unnoticed.
//
// The watchdog makes no MPI calls (the job runs MPI_THREAD_SERIALIZED); MPI
// is used once, in the collective constructor, to exchange the heartbeat
// addresses. Nothing is watched in a job of one rank.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "hpcdb/core/injected_failure.hpp"
#include "hpcdb/core/progress_observer.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Testing aid: the rank named by --fail-rank fails (core/injected_failure.hpp)
// --fail-after seconds into the guarded run (checked at phase starts).

struct ProgressGuardConfig {
  double timeout_seconds = 10;  // silence; 5x this without any progress: stuck
  std::string operation = "join";
  std::string timeout_option = "--progress-timeout";  // named in the messages
  // Testing aid: a rank that fails (kill, stop, hang) this long into the guarded run.
  InjectedFailure failure;
  // A phase in which the operator notices silent peers itself, with a more
  // precise message (the transaction engine's run): silence there is judged
  // only after kSelfGuardedTimeouts timeouts, as a backstop.
  std::string self_guarded_phase;
  // Whether a rank that lags behind the others without progress is judged
  // (stuck); a watch over a whole program whose ranks may do other work
  // between calls judges silence only.
  bool judge_hangs = true;
  // Whether the guard observes the thread that constructs it (ProgressScope):
  // not for a guard that outlives a call and may be destroyed elsewhere.
  bool observe_calling_thread = true;
};

inline constexpr double kSelfGuardedTimeouts = 3;

class ProgressGuard final : public ProgressObserver {
 public:
  // Collective over the job; starts the watchdog and observes the calling thread.
  ProgressGuard(const Cluster& cluster, ProgressGuardConfig config);
  ~ProgressGuard() override;
  ProgressGuard(const ProgressGuard&) = delete;
  ProgressGuard& operator=(const ProgressGuard&) = delete;

  void phase_started(const std::string& name) override;
  void progressed() override { progress_.fetch_add(1, std::memory_order_relaxed); }

 private:
  struct Peer {
    std::uint32_t address = 0;  // IPv4, network order
    std::uint16_t port = 0;     // network order
    std::chrono::steady_clock::time_point last_heard;
    std::chrono::steady_clock::time_point last_progress;
    std::uint64_t phases = 0;
    std::uint64_t progress = 0;
    std::string phase;
    bool heard = false;  // judged only once heard from: a firewall is not a stop
    bool finished = false;
    bool self_guarded = false;  // in the operator's self-guarded phase when last heard
  };

  void watch();
  void send_heartbeats(bool finished);
  void receive_heartbeats();
  void judge(std::chrono::steady_clock::time_point now);
  void warn_if_unheard(std::chrono::steady_clock::time_point now);
  double silence_limit(const Peer& peer) const;
  [[noreturn]] void end_job(const std::string& message, bool print) const;
  void fail_if_asked();

  const Cluster& cluster_;
  ProgressGuardConfig config_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t nonce_ = 0;
  int socket_ = -1;
  std::vector<Peer> peers_;  // by world rank; the watchdog's own view (its entry for this rank too)
  std::atomic<std::uint64_t> phases_{0};
  std::atomic<std::uint64_t> progress_{0};
  mutable std::mutex phase_mutex_;
  std::string phase_ = "set-up";
  std::atomic<bool> stopping_{false};
  std::chrono::steady_clock::time_point verdict_since_{};
  bool verdict_seen_ = false;
  bool unheard_reported_ = false;
  std::thread watchdog_;
  std::optional<ProgressScope> scope_;
};

}  // namespace hpcdb
