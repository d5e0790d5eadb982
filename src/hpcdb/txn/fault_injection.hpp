#pragma once
// Testing aid: the rank named by --fail-rank kills itself (SIGKILL, as a
// crash would) --fail-after seconds into the run, so that tests can check the
// job ends with a clear message instead of hanging.
#include <csignal>
#include <cstdint>
#include <cstdio>

#include "hpcdb/txn/txn_config.hpp"

namespace hpcdb {

inline void fail_if_asked(const TxnEngineConfig& config, int rank, std::uint64_t start_ns, std::uint64_t now_ns) {
  if (config.fail_rank != rank) return;
  if (static_cast<double>(now_ns - start_ns) < config.fail_after_seconds * 1e9) return;
  std::fprintf(stderr, "hpcdb: rank %d is killing itself now (--fail-rank)\n", rank);
  std::fflush(stderr);
  std::raise(SIGKILL);
}

}  // namespace hpcdb
