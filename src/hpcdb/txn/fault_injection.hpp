#pragma once
// Testing aid: the rank named by --fail-rank kills itself (SIGKILL, as a
// crash would) or stops answering for good (--fail-how hang) --fail-after
// seconds into the run, so that tests can check the job ends with a clear
// message instead of hanging.
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>

#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/txn/txn_config.hpp"

namespace hpcdb {

inline void fail_if_asked(const TxnEngineConfig& config, int rank, std::uint64_t start_ns, std::uint64_t now_ns) {
  if (config.fail_rank != rank) return;
  if (static_cast<double>(now_ns - start_ns) < config.fail_after_seconds * 1e9) return;
  std::fprintf(stderr, "hpcdb: rank %d is %s now (--fail-rank)\n", rank, config.fail_hangs ? "hanging" : "killing itself");
  std::fflush(stderr);
  if (!config.fail_hangs) std::raise(SIGKILL);
  for (;;) pause();  // until the job is torn down
}

// The same where no clock reading is at hand: reads the clock only on the
// rank that is to fail (a lock request is too short to read it for nothing).
inline void fail_if_asked(const TxnEngineConfig& config, int rank, std::uint64_t start_ns) {
  if (config.fail_rank == rank) fail_if_asked(config, rank, start_ns, monotonic_ns());
}

}  // namespace hpcdb
