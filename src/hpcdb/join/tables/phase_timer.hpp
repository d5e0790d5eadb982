#pragma once
// Phases of a table join timed over all ranks: each phase ends at a barrier,
// so that the next starts together on every rank. Collective.
#include <mpi.h>

#include <string>
#include <vector>

#include "hpcdb/core/phase_time.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

class PhaseTimer {
 public:
  explicit PhaseTimer(const Cluster& cluster) : cluster_(cluster) {
    MPI_Barrier(cluster.world());
    start_ = MPI_Wtime();
  }
  // The phase since the last one; `part_seconds` of it (this rank's) are
  // reported as the phase `part` when that is named.
  void phase(std::vector<PhaseTime>& phases, const std::string& name, const std::string& part = {},
             double part_seconds = 0) {
    const double now = MPI_Wtime();
    const Spread spread = spread_over_ranks(now - start_ - (part.empty() ? 0 : part_seconds), cluster_.world());
    phases.push_back({name, spread.max, spread.mean});
    if (!part.empty()) {
      const Spread in_part = spread_over_ranks(part_seconds, cluster_.world());
      phases.push_back({part, in_part.max, in_part.mean});
    }
    MPI_Barrier(cluster_.world());
    start_ = MPI_Wtime();
  }

  // The phase since the last one, reported as parts whose seconds each rank
  // counted itself (parts without a name are left out), but for part
  // `rest`, which is what is left of the phase (waiting included).
  struct Part {
    std::string name;
    double seconds = 0;
  };
  void split_phase(std::vector<PhaseTime>& phases, std::vector<Part> parts, std::size_t rest) {
    double counted = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) counted += i == rest ? 0 : parts[i].seconds;
    parts[rest].seconds = MPI_Wtime() - start_ - counted;
    for (const Part& part : parts) {
      const Spread spread = spread_over_ranks(part.seconds, cluster_.world());
      if (!part.name.empty()) phases.push_back({part.name, spread.max, spread.mean});
    }
    MPI_Barrier(cluster_.world());
    start_ = MPI_Wtime();
  }

 private:
  const Cluster& cluster_;
  double start_ = 0;
};

}  // namespace hpcdb
