#pragma once
// One timed run of a distributed join, as every operator runs it: all ranks
// start together, each phase is timed under the name the report gives it,
// worker threads run under fail_fast(), and at the end the job's summary is
// formed (counts summed over ranks, each phase's max and mean, imbalance).
// An injected failure (testing aid) fires in the phase it names: in the
// last worker thread when the phase runs several, else on the rank itself.
#include <cstdint>
#include <string>

#include "hpcdb/core/injected_failure.hpp"
#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/fail_fast.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// An operator's set-up (its allocations before any run), as the testing
// aid names it among the phases.
inline constexpr const char* kSetupPoint = "setup";

// Fails here when the testing aid names the set-up on this rank.
inline void fail_in_setup(const Cluster& cluster, const InjectedFailure& failure) {
  failure.fire_at(cluster.rank(), kSetupPoint);
}

class JoinRun final : public WorkerRunner {
 public:
  // Collective: a barrier, then the clock starts.
  JoinRun(const Cluster& cluster, const Relation& inner, const Relation& outer, const InjectedFailure& failure);

  // Ends the running phase and starts `name`.
  void phase(const std::string& name);
  // Adds time to a phase (listed in order of first mention, also with 0 s).
  void add(const std::string& name, double seconds) { clock_.add(name, seconds); }

  // The running phase's work on `threads` workers (fail_fast.hpp's run_workers()).
  void run_workers(unsigned threads, const std::function<void(unsigned)>& body) override {
    const bool fire = armed_ && threads > 1;
    if (fire) armed_ = false;
    hpcdb::run_workers(cluster_, threads, [&](unsigned t) {
      if (fire && t + 1 == threads) failure_.fire();
      body(t);
    });
  }

  JoinResult& result() { return result_; }
  // This rank's matches: count, checksum and (when kept) pairs.
  void take_matches(MatchCollector&& matches);

  // Collective: stops the clock and forms the job's summary of the run.
  JoinResult finish();

 private:
  void fire_if_armed();

  const Cluster& cluster_;
  InjectedFailure failure_;
  bool armed_ = false;
  PhaseClock clock_;
  double start_ = 0;
  JoinResult result_;
};

// Collective: sums each rank's node-sharing counts over the job.
void sum_sharing_over_ranks(const Cluster& cluster, NodeSharing& sharing);

}  // namespace hpcdb
