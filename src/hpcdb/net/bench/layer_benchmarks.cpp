#include "hpcdb/net/bench/layer_benchmarks.hpp"

#include <sched.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {
namespace {

// Endpoints of the benchmarks' own traffic.
enum : EndpointId {
  kData = 100,
  kAck,
  kEnd,
  kSmallData,
  kSmallAck,
  kLargeData,
  kLargeAck,
  kPing,
  kPong,
};

// The handlers below point to a benchmark's own counters: they are replaced
// by no-ops when the benchmark ends (every message has been handled by then).

// Waits for `done()` on this thread: drives the layer when it has no network
// threads of its own, else spins and yields.
template <class Done>
void wait_for(MessageLayer& layer, Done&& done, const char* what) {
  Stopwatch waiting;
  unsigned spins = 0;
  while (!done()) {
    if (layer.config().threads == 0) {
      layer.progress();
    } else if (++spins > 64) {
      sched_yield();
    }
    if ((spins & 1023) == 0 && waiting.seconds() > layer.config().stall_timeout) {
      throw Error(std::string("netbench: no progress for --stall-timeout seconds while waiting for ") + what);
    }
  }
}

void send_empty(MessageLayer& layer, int target, EndpointId endpoint, Priority priority) {
  layer.send(layer.acquire(0), target, endpoint, {.priority = priority});
}

// The receiving side of window-and-acknowledge streams: counts each stream's
// messages and acknowledges every `window`-th; counts end markers.
class WindowReceiver {
 public:
  WindowReceiver(MessageLayer& layer, EndpointId data, EndpointId ack, unsigned window, Priority ack_class)
      : layer_(layer), data_(data) {
    layer.register_handler(data, [this, ack, window, ack_class](Message& m) {
      const std::uint64_t n = received_.fetch_add(1, std::memory_order_relaxed) + 1;
      if (n % window == 0) send_empty(layer_, m.source(), ack, ack_class);
    });
  }
  ~WindowReceiver() { layer_.register_handler(data_, [](Message&) {}); }
  WindowReceiver(const WindowReceiver&) = delete;
  WindowReceiver& operator=(const WindowReceiver&) = delete;
  std::uint64_t received() const { return received_.load(std::memory_order_acquire); }

 private:
  MessageLayer& layer_;
  EndpointId data_;
  std::atomic<std::uint64_t> received_{0};
};

class Counter {
 public:
  Counter(MessageLayer& layer, EndpointId endpoint) : layer_(layer), endpoint_(endpoint) {
    layer.register_handler(endpoint, [this](Message&) { count_.fetch_add(1, std::memory_order_acq_rel); });
  }
  ~Counter() { layer_.register_handler(endpoint_, [](Message&) {}); }
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;
  std::uint64_t count() const { return count_.load(std::memory_order_acquire); }

 private:
  MessageLayer& layer_;
  EndpointId endpoint_;
  std::atomic<std::uint64_t> count_{0};
};

// Rank 0's side of a window-and-acknowledge stream to `targets`: windows
// until `more()` says stop (checked before each window); returns the
// timed part (after `skip` windows).
template <class More>
Throughput send_windows(MessageLayer& layer, const std::vector<int>& targets, std::size_t bytes, unsigned window,
                        unsigned skip, EndpointId data, const Counter& acks, Priority priority, More&& more) {
  Throughput t;
  Stopwatch watch;
  const std::uint64_t acks_before = acks.count();
  for (unsigned it = 0; more(it); ++it) {
    if (it == skip) watch.restart();
    for (unsigned k = 0; k < window; ++k) {
      for (int target : targets) layer.send(layer.acquire(bytes), target, data, {.priority = priority});
    }
    const std::uint64_t wanted = acks_before + (it + 1) * targets.size();
    wait_for(layer, [&] { return acks.count() >= wanted; }, "acknowledgements");
    if (it >= skip) {
      t.messages += window;
      t.bytes += static_cast<std::uint64_t>(window) * bytes;
    }
  }
  t.seconds = watch.seconds();
  return t;
}

}  // namespace

Throughput layer_bandwidth(MessageLayer& layer, const WindowPlan& plan, Priority priority) {
  if (layer.ranks() < 2) throw UsageError("netbench needs at least 2 ranks");
  WindowReceiver receiver(layer, kData, kAck, plan.window, Priority::latency);
  Counter acks(layer, kAck);
  layer.drain();  // every rank's handlers are in place before the first message
  Throughput t;
  const unsigned windows = plan.skip + plan.iterations;
  if (layer.rank() == 0) {
    t = send_windows(layer, {1}, plan.bytes, plan.window, plan.skip, kData, acks, priority,
                     [&](unsigned it) { return it < windows; });
  } else if (layer.rank() == 1) {
    wait_for(layer, [&] { return receiver.received() >= std::uint64_t{windows} * plan.window; }, "the stream");
  }
  layer.drain();
  return t;
}

PingPong layer_ping_pong(MessageLayer& layer, std::size_t bytes, unsigned iterations, unsigned skip) {
  if (layer.ranks() < 2) throw UsageError("netbench needs at least 2 ranks");
  std::atomic<unsigned> pongs{0};
  std::uint64_t start_ns = 0, end_ns = 0;
  const unsigned total = skip + iterations;
  layer.register_handler(kPing, [&](Message& m) {
    layer.send(layer.acquire(bytes), m.source(), kPong, {.priority = Priority::latency});
    pongs.fetch_add(1, std::memory_order_release);  // on rank 1: pings answered
  });
  layer.register_handler(kPong, [&](Message&) {
    const unsigned n = pongs.load(std::memory_order_relaxed) + 1;
    if (n == skip) start_ns = monotonic_ns();
    if (n == total) end_ns = monotonic_ns();
    if (n < total) layer.send(layer.acquire(bytes), 1, kPing, {.priority = Priority::latency});
    pongs.store(n, std::memory_order_release);
  });
  layer.drain();  // both handlers are in place before the first ping
  if (layer.rank() == 0) {
    layer.send(layer.acquire(bytes), 1, kPing, {.priority = Priority::latency});
  }
  if (layer.rank() <= 1) wait_for(layer, [&] { return pongs.load(std::memory_order_acquire) >= total; }, "pongs");
  layer.drain();
  layer.register_handler(kPing, [](Message&) {});
  layer.register_handler(kPong, [](Message&) {});
  PingPong p;
  p.iterations = iterations;
  if (layer.rank() == 0) p.half_round_trip = static_cast<double>(end_ns - start_ns) * 1e-9 / iterations / 2;
  return p;
}

MixedStreams layer_mixed_streams(MessageLayer& layer, std::size_t small, std::size_t large, unsigned window,
                                 double seconds) {
  if (layer.ranks() < 2) throw UsageError("netbench needs at least 2 ranks");
  if (layer.config().threads == 0) throw UsageError("netbench's mixed-size test sends from two threads: use --net-threads 1 or more");
  MixedStreams result;
  // Together, then small alone, then large alone.
  for (int phase = 0; phase < 3; ++phase) {
    WindowReceiver small_receiver(layer, kSmallData, kSmallAck, window, Priority::best_effort);
    WindowReceiver large_receiver(layer, kLargeData, kLargeAck, window, Priority::best_effort);
    Counter small_acks(layer, kSmallAck), large_acks(layer, kLargeAck), ends(layer, kEnd);
    const bool run_small = phase != 2, run_large = phase != 1;
    layer.drain();
    if (layer.rank() == 0) {
      Stopwatch clock;
      auto stream = [&](std::size_t bytes, EndpointId data, const Counter& acks, Throughput& out) {
        out = send_windows(layer, {1}, bytes, window, 1, data, acks, Priority::best_effort,
                           [&](unsigned) { return clock.seconds() < seconds; });
        send_empty(layer, 1, kEnd, Priority::best_effort);
      };
      Throughput small_t, large_t;
      std::thread small_thread;
      if (run_small) small_thread = std::thread([&] { stream(small, kSmallData, small_acks, small_t); });
      if (run_large) stream(large, kLargeData, large_acks, large_t);
      if (small_thread.joinable()) small_thread.join();
      if (phase == 0) {
        result.small_together = small_t;
        result.large_together = large_t;
      } else if (phase == 1) {
        result.small_alone = small_t;
      } else {
        result.large_alone = large_t;
      }
    } else if (layer.rank() == 1) {
      const std::uint64_t streams = (run_small ? 1 : 0) + (run_large ? 1 : 0);
      wait_for(layer, [&] { return ends.count() >= streams; }, "the end of the streams");
    }
    layer.drain();
  }
  return result;
}

Throughput layer_one_to_many(MessageLayer& layer, int receivers, const WindowPlan& plan) {
  if (receivers < 1 || receivers >= layer.ranks()) throw UsageError("netbench: the broadcast needs 1 to ranks-1 receivers");
  WindowReceiver receiver(layer, kData, kAck, plan.window, Priority::latency);
  Counter acks(layer, kAck);
  std::vector<int> targets;
  for (int r = 1; r <= receivers; ++r) targets.push_back(r);
  layer.drain();  // every rank's handlers are in place before the first message
  Throughput t;
  const unsigned windows = plan.skip + plan.iterations;
  if (layer.rank() == 0) {
    t = send_windows(layer, targets, plan.bytes, plan.window, plan.skip, kData, acks, Priority::best_effort,
                     [&](unsigned it) { return it < windows; });
  } else if (layer.rank() <= receivers) {
    wait_for(layer, [&] { return receiver.received() >= std::uint64_t{windows} * plan.window; }, "the broadcast");
  }
  layer.drain();
  return t;
}

PriorityRun layer_priority_under_load(MessageLayer& layer, std::size_t ping_bytes, Priority ping_class,
                                      std::size_t flood_bytes, unsigned window, double seconds) {
  if (layer.ranks() < 2) throw UsageError("netbench needs at least 2 ranks");
  if (layer.config().threads == 0 && flood_bytes > 0) {
    throw UsageError("netbench's priority test floods from a thread of its own: use --net-threads 1 or more");
  }
  PriorityRun run;
  WindowReceiver flood_receiver(layer, kData, kAck, window, Priority::best_effort);
  Counter acks(layer, kAck), ends(layer, kEnd);
  std::atomic<bool> pinging{true};
  std::atomic<bool> pings_done{false};
  std::uint64_t sent_ns = 0;
  Stopwatch clock;
  layer.register_handler(kPing, [&layer, ping_bytes, ping_class](Message& m) {
    layer.send(layer.acquire(ping_bytes), m.source(), kPong, {.priority = ping_class});
  });
  // Round trips are timed on rank 0 alone (one ping in flight at a time).
  layer.register_handler(kPong, [&](Message&) {
    run.round_trips.add(monotonic_ns() - sent_ns);
    if (clock.seconds() < seconds) {
      sent_ns = monotonic_ns();
      layer.send(layer.acquire(ping_bytes), 1, kPing, {.priority = ping_class});
    } else {
      pings_done.store(true, std::memory_order_release);
    }
  });
  layer.drain();
  if (layer.rank() == 0) {
    clock.restart();
    std::thread flood;
    if (flood_bytes > 0) {
      flood = std::thread([&] {
        run.flood = send_windows(layer, {1}, flood_bytes, window, 1, kData, acks, Priority::best_effort,
                                 [&](unsigned) { return pinging.load(std::memory_order_acquire); });
        send_empty(layer, 1, kEnd, Priority::best_effort);
      });
      // The flood fills the queues before the first ping.
      wait_for(layer, [&] { return acks.count() >= 2 || clock.seconds() > seconds; }, "the flood");
      clock.restart();
    }
    sent_ns = monotonic_ns();
    layer.send(layer.acquire(ping_bytes), 1, kPing, {.priority = ping_class});
    wait_for(layer, [&] { return pings_done.load(std::memory_order_acquire); }, "pongs");
    send_empty(layer, 1, kEnd, ping_class);
    pinging.store(false, std::memory_order_release);
    if (flood.joinable()) flood.join();
  } else if (layer.rank() == 1) {
    // The end of the round trips, and of the flood.
    wait_for(layer, [&] { return ends.count() >= (flood_bytes > 0 ? 2u : 1u); }, "the end of the round trips");
  }
  layer.drain();
  layer.register_handler(kPong, [](Message&) {});
  return run;
}

}  // namespace hpcdb
