#pragma once
// Testing aid of every operator (--fail-rank and its companions): one rank
// fails on purpose, at a named point (a phase of a join, the start-up of the
// transaction engine) or some time into its run, so that tests can check
// that a failure anywhere ends every rank with a clear message instead of a
// hang.
#include <string>
#include <string_view>

namespace hpcdb {

// error: the rank throws an Error, as its own code would on a failure;
// kill: SIGKILL, as a crash; stop: SIGSTOP, as a frozen node; hang: alive
// (its other threads too) but never returning, as a livelock.
enum class FailureMode { none, error, kill, stop, hang };

// "kill", "stop" or "hang" (the modes a --fail-how option takes); throws
// UsageError naming `option` otherwise.
FailureMode parse_failure_mode(const std::string& text, const std::string& option);

struct InjectedFailure {
  int rank = -1;  // -1: no rank fails
  FailureMode mode = FailureMode::none;
  std::string at;            // a named point; empty: `after_seconds` into the run
  double after_seconds = 0;

  bool on(int my_rank) const { return mode != FailureMode::none && rank == my_rank; }
  // Whether this rank fails at `point`.
  bool at_point(int my_rank, std::string_view point) const { return on(my_rank) && at == point; }
  // Whether this rank, `seconds` into its run, is due to fail by time.
  bool due(int my_rank, double seconds) const { return on(my_rank) && at.empty() && seconds >= after_seconds; }

  // Fails now (fire()) when due(), or at_point().
  void fire_if_due(int my_rank, double seconds) const {
    if (due(my_rank, seconds)) fire();
  }
  void fire_at(int my_rank, std::string_view point, const char* where = "") const {
    if (at_point(my_rank, point)) fire(where);
  }

  // The error a rank throws in FailureMode::error.
  std::string message() const;
  // Fails this rank now as `mode` says, saying so on standard error first
  // (`where`, e.g. " in the start-up", completes that line). Throws for error.
  [[noreturn]] void fire(const char* where = "") const;
};

}  // namespace hpcdb
