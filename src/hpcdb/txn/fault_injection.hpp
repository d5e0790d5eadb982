#pragma once
// Testing aid: the rank named by --fail-rank kills itself (SIGKILL, as a
// crash would), stops (SIGSTOP, as a frozen node) or stops answering for good
// (--fail-how hang) --fail-after seconds into the run, or as the start-up
// loads the data or the finish gathers the results (--fail-during), so that
// tests can check the job ends with a clear message instead of hanging.
#include <cstdint>

#include "hpcdb/core/injected_failure.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/txn/txn_config.hpp"

namespace hpcdb {

inline void fail_if_asked(const TxnEngineConfig& config, int rank, std::uint64_t start_ns, std::uint64_t now_ns) {
  if (config.fail_rank != rank || config.fail_during != FailurePoint::run) return;
  if (static_cast<double>(now_ns - start_ns) < config.fail_after_seconds * 1e9) return;
  fail_now(rank, config.fail_how, "");
}

// The same where no clock reading is at hand: reads the clock only on the
// rank that is to fail (a lock request is too short to read it for nothing).
inline void fail_if_asked(const TxnEngineConfig& config, int rank, std::uint64_t start_ns) {
  if (config.fail_rank == rank) fail_if_asked(config, rank, start_ns, monotonic_ns());
}

// At the start-up's or the finish's failure point.
inline void fail_if_asked_at(const TxnEngineConfig& config, int rank, FailurePoint point) {
  if (config.fail_rank != rank || config.fail_during != point) return;
  fail_now(rank, config.fail_how, point == FailurePoint::start_up ? " in the start-up" : " in the finish");
}

}  // namespace hpcdb
