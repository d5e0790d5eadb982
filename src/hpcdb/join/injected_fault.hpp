#pragma once
// Testing aid: a failure a join throws on purpose on one rank, in one of its
// phases (hpcdb join --fail-rank R --fail-phase P), so that tests can check
// that a failure inside a running join ends every rank with its message.
#include <string>

namespace hpcdb {

struct InjectedFault {
  int rank = -1;      // -1: none
  std::string phase;  // a phase of the join's report, or "setup"

  bool hits(int my_rank, const std::string& current_phase) const { return rank == my_rank && phase == current_phase; }
  std::string message() const {
    return "injected failure in phase " + phase + " on rank " + std::to_string(rank) + " (--fail-rank, --fail-phase)";
  }
};

}  // namespace hpcdb
