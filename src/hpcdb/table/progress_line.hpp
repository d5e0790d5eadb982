#pragma once
// A progress line for people watching a long table operation: on a
// terminal, once work has gone on for a few seconds, rank 0 rewrites one line
// of standard error twice a second with the phase, the rows and bytes done
// by this rank, and the rate; nothing at all when standard error is not a
// terminal or on other ranks. The operation counts, the line's own thread
// prints.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace hpcdb {

class ProgressLine {
 public:
  // Shows the line only when `enabled` and standard error is a terminal.
  explicit ProgressLine(bool enabled, double delay_seconds = 3.0);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void phase(const std::string& name);  // restarts the counts
  void add(std::uint64_t rows, std::uint64_t bytes) {
    rows_.fetch_add(rows, std::memory_order_relaxed);
    bytes_.fetch_add(bytes, std::memory_order_relaxed);
  }
  bool shown() const { return thread_.joinable(); }

 private:
  void loop();
  std::string text(double seconds) const;

  double delay_;
  std::atomic<std::uint64_t> rows_{0};
  std::atomic<std::uint64_t> bytes_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string phase_;
  double phase_start_ = 0;
  bool stop_ = false;
  bool printed_ = false;
  std::thread thread_;
};

}  // namespace hpcdb
