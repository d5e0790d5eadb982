#include "hpcdb/core/injected_failure.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

FailureMode parse_failure_mode(const std::string& text, const std::string& option) {
  if (text == "kill") return FailureMode::kill;
  if (text == "stop") return FailureMode::stop;
  if (text == "hang") return FailureMode::hang;
  throw UsageError(option + " must be kill, stop or hang, not '" + text + "'");
}

std::string InjectedFailure::message() const {
  return "injected failure in phase " + at + " on rank " + std::to_string(rank) + " (--fail-rank, --fail-phase)";
}

void InjectedFailure::fire(const char* where) const {
  if (mode == FailureMode::error) throw Error(message());
  std::fprintf(stderr, "hpcdb: rank %d is %s now%s (--fail-rank)\n", rank,
               mode == FailureMode::kill   ? "killing itself"
               : mode == FailureMode::stop ? "stopping"
                                           : "hanging",
               where);
  std::fflush(stderr);
  if (mode == FailureMode::kill) std::raise(SIGKILL);
  if (mode == FailureMode::stop) std::raise(SIGSTOP);
  for (;;) pause();  // hanging, or continued after a stop: until the job is torn down
}

}  // namespace hpcdb
