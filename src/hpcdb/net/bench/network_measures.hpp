#pragma once
// What the network benchmarks measure, whatever moved the messages: plain
// MPI or the message layer. Figures are rank 0's (the sender, or the side
// that timed the round trips).
#include <cstddef>
#include <cstdint>

#include "hpcdb/core/latency_histogram.hpp"

namespace hpcdb {

struct Throughput {
  double seconds = 0;
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;  // payload
  double bytes_per_second() const { return seconds > 0 ? static_cast<double>(bytes) / seconds : 0; }
  double messages_per_second() const { return seconds > 0 ? static_cast<double>(messages) / seconds : 0; }
};

// OSU-style bandwidth: `window` messages of one size, then an acknowledgement,
// `iterations` times after `skip` untimed ones.
struct WindowPlan {
  std::size_t bytes = 0;
  unsigned window = 64;
  unsigned iterations = 20;
  unsigned skip = 2;
};

// A window plan for one message size: as many iterations as `budget` bytes
// allow (between 5 and `most`), a tenth of them (at least one) skipped.
WindowPlan window_plan(std::size_t bytes, unsigned window, unsigned most, std::size_t budget);

struct PingPong {
  double half_round_trip = 0;  // seconds, mean over the timed iterations
  unsigned iterations = 0;
};

// Two streams of different sizes at once, and each alone.
struct MixedStreams {
  Throughput small_together, large_together, small_alone, large_alone;
};

// Latency-sensitive round trips while best-effort messages flood the same path.
struct PriorityRun {
  LatencyHistogram round_trips;  // ns
  Throughput flood;
};

}  // namespace hpcdb
