#pragma once
#include <chrono>
#include <cstdint>

namespace hpcdb {

// Wall-clock seconds since construction or the last restart().
class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

}  // namespace hpcdb

namespace hpcdb {

// Nanoseconds on the monotonic clock (for latencies and deadlines).
inline std::uint64_t monotonic_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// Seconds from one monotonic_ns() reading to a later one.
inline double seconds_between_ns(std::uint64_t from_ns, std::uint64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) * 1e-9;
}

}  // namespace hpcdb
