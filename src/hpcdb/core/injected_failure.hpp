#pragma once
// Testing aid shared by the operators' --fail-rank options: how a rank fails
// on purpose, so that tests can check that the job ends with a clear message
// instead of hanging.
#include <unistd.h>

#include <csignal>
#include <cstdio>

namespace hpcdb {

// kill: SIGKILL, as a crash; stop: SIGSTOP, as a frozen node; hang: alive
// (its other threads too) but never returning, as a livelock.
enum class InjectedFailure { none, kill, stop, hang };

// Fails this rank now, saying so on standard error first.
[[noreturn]] inline void fail_now(int rank, InjectedFailure how, const char* where) {
  std::fprintf(stderr, "hpcdb: rank %d is %s now%s (--fail-rank)\n", rank,
               how == InjectedFailure::kill   ? "killing itself"
               : how == InjectedFailure::stop ? "stopping"
                                              : "hanging",
               where);
  std::fflush(stderr);
  if (how == InjectedFailure::kill) std::raise(SIGKILL);
  if (how == InjectedFailure::stop) std::raise(SIGSTOP);
  for (;;) pause();  // hanging, or continued after a stop: until the job is torn down
}

}  // namespace hpcdb
