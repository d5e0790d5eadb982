#pragma once
// One timed run of a distributed join, as every operator runs it: all ranks
// start together, each phase is timed under the name the report gives it,
// worker threads run under fail_fast(), and at the end the job's summary is
// formed (counts summed over ranks, each phase's max and mean, imbalance).
// An injected failure (testing aid) fires in the phase it names: in the
// last worker thread when the phase runs several, else on the rank itself.
#include <cstdint>
#include <string>

#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/fail_fast.hpp"
#include "hpcdb/join/injected_fault.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class JoinRun {
 public:
  // Collective: a barrier, then the clock starts.
  JoinRun(const Cluster& cluster, const Relation& inner, const Relation& outer, const InjectedFault& fault);

  // Ends the running phase and starts `name`.
  void phase(const std::string& name);
  // Adds time to a phase (listed in order of first mention, also with 0 s).
  void add(const std::string& name, double seconds) { clock_.add(name, seconds); }

  // The running phase's work on `threads` workers (run_workers()).
  template <class Body>
  void workers(unsigned threads, Body&& body) {
    const bool fire = armed_ && threads > 1;
    if (fire) armed_ = false;
    run_workers(cluster_, threads, [&](unsigned t) {
      if (fire && t + 1 == threads) throw Error(fault_.message());
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
  InjectedFault fault_;
  bool armed_ = false;
  PhaseClock clock_;
  double start_ = 0;
  JoinResult result_;
};

// Collective: sums each rank's node-sharing counts over the job.
void sum_sharing_over_ranks(const Cluster& cluster, NodeSharing& sharing);

}  // namespace hpcdb
