#pragma once
// Ctrl-C (SIGINT) and SIGTERM end the program at once, like any failure:
// temporary output files are removed (their final names were never
// touched), and Ctrl-C prints one line and exits with 130 (128 + SIGINT),
// as shells expect. Under mpirun every rank gets the signal; only the rank
// that announces prints the line.
//
// A signal handler can reach only what lives outside any object, so the
// temporary files in progress are kept in a fixed table here: the one piece
// of process-wide state, written only by TemporaryFileGuard.
#include <string>

namespace hpcdb {

// Installs the handlers; `announce` makes this process print the line on Ctrl-C.
void end_on_interruption(bool announce);

// Removes the registered temporary files now (async-signal-safe), for a
// process about to end without unwinding.
void remove_temporary_files_now();

// Registers a temporary file for removal on interruption while it lives.
class TemporaryFileGuard {
 public:
  TemporaryFileGuard() = default;
  explicit TemporaryFileGuard(const std::string& path);
  ~TemporaryFileGuard() { release(); }
  TemporaryFileGuard(TemporaryFileGuard&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }
  TemporaryFileGuard& operator=(TemporaryFileGuard&& other) noexcept;
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

  // The file is no longer temporary (renamed into place, or removed).
  void release();

 private:
  int slot_ = -1;  // -1: none (also when the table was full)
};

}  // namespace hpcdb
