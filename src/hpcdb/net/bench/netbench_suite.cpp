#include "hpcdb/net/bench/netbench_suite.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/bench/layer_benchmarks.hpp"
#include "hpcdb/net/bench/mpi_benchmarks.hpp"
#include "hpcdb/net/messaging/message_header.hpp"

namespace hpcdb {
namespace {

using Test = NetbenchTest;
using Transport = NetbenchTransport;

std::size_t largest_of(const std::vector<std::size_t>& sizes) { return *std::max_element(sizes.begin(), sizes.end()); }

// The sender's buffers of a window are all in flight at once.
std::size_t bytes_in_flight(const NetbenchConfig& c, int ranks) {
  std::size_t in_flight = 0;
  if (c.tests.count(Test::bandwidth)) in_flight = std::max(in_flight, c.window * largest_of(c.sizes));
  if (c.tests.count(Test::broadcast)) {
    in_flight = std::max(in_flight, c.window * largest_of(c.sizes) * static_cast<std::size_t>(ranks - 1));
  }
  if (c.tests.count(Test::mixed)) in_flight = std::max(in_flight, c.window * (c.mixed_small + c.mixed_large));
  if (c.tests.count(Test::priority)) in_flight = std::max(in_flight, c.window * largest_of(c.flood_sizes));
  return in_flight;
}

void validate_message_sizes(const NetbenchConfig& c, int ranks) {
  const std::size_t largest = std::max({c.mixed_large, c.mixed_small, c.ping_bytes, largest_of(c.sizes),
                                        largest_of(c.latency_sizes), largest_of(c.flood_sizes)});
  if (largest > c.layer.max_message) {
    throw UsageError("netbench sends messages of up to " + std::to_string(largest) + " bytes, more than --max-message " +
                     std::to_string(c.layer.max_message));
  }
  const std::size_t in_flight = bytes_in_flight(c, ranks);
  if (in_flight > c.layer.pool_bytes) {
    throw UsageError("windows of " + std::to_string(c.window) + " messages need up to " +
                     format_bytes(static_cast<double>(in_flight)) + " of buffers at once, more than --pool-bytes " +
                     format_bytes(static_cast<double>(c.layer.pool_bytes)) +
                     ": raise --pool-bytes, or lower --window or the largest size");
  }
}

MessageLayerConfig config_for(Transport t, MessageLayerConfig c) {
  if (t == Transport::ring) c.threshold = c.ring_bytes - sizeof(MessageHeader);
  if (t == Transport::two_sided) c.threshold = 0;
  return c;
}

unsigned latency_iterations(const NetbenchConfig& c, std::size_t bytes) {
  const std::size_t affordable = c.bytes_per_size / (2 * std::max<std::size_t>(bytes, 64)) / 16;
  return static_cast<unsigned>(std::clamp<std::size_t>(affordable, 50, 2000));
}

WindowPlan plan_for(const NetbenchConfig& c, std::size_t bytes) {
  return window_plan(bytes, c.window, c.iterations, c.bytes_per_size);
}

// Windows of `bytes` to each of `receivers`, as many as the byte budget of
// one size allows for all of them together.
WindowPlan broadcast_plan(const NetbenchConfig& c, std::size_t bytes, int receivers) {
  WindowPlan plan = plan_for(c, bytes * static_cast<std::size_t>(receivers));
  plan.bytes = bytes;
  return plan;
}

void mpi_round(const Cluster& cluster, const NetbenchConfig& c, NetbenchResults& r) {
  const MPI_Comm world = cluster.world();
  if (c.tests.count(Test::bandwidth)) {
    for (std::size_t s : c.sizes) {
      r.series(r.bandwidth, "mpi").rounds[s].push_back(mpi_bandwidth(world, plan_for(c, s)).bytes_per_second());
    }
  }
  if (c.tests.count(Test::latency)) {
    for (std::size_t s : c.latency_sizes) {
      const unsigned n = latency_iterations(c, s);
      r.series(r.latency, "mpi").rounds[s].push_back(mpi_ping_pong(world, s, n, n / 10).half_round_trip);
    }
  }
  if (c.tests.count(Test::mixed)) {
    r.mixed_row("mpi").rounds.push_back(mpi_mixed_streams(world, c.mixed_small, c.mixed_large, c.window, c.duration));
  }
  if (c.tests.count(Test::broadcast)) {
    for (int n = 1; n < cluster.size(); ++n) {
      for (std::size_t s : c.sizes) {
        const WindowPlan each = broadcast_plan(c, s, n);
        r.series(r.broadcast, "mpi-bcast", n).rounds[s].push_back(mpi_broadcast(world, n, each).bytes_per_second());
        r.series(r.broadcast, "mpi-sends", n).rounds[s].push_back(mpi_multiple_sends(world, n, each).bytes_per_second());
      }
    }
  }
}

void layer_round(const Cluster& cluster, const NetbenchConfig& c, Transport t, NetbenchResults& r) {
  const MessageLayerConfig config = config_for(t, c.layer);
  const std::string name(name_of(t, kNetbenchTransportNames));
  MessageLayer layer(cluster, config);
  const std::size_t ring_limit = t == Transport::ring ? config.threshold : SIZE_MAX;
  if (c.tests.count(Test::bandwidth)) {
    for (std::size_t s : c.sizes) {
      if (s > ring_limit) continue;
      r.series(r.bandwidth, name).rounds[s].push_back(layer_bandwidth(layer, plan_for(c, s)).bytes_per_second());
    }
  }
  if (c.tests.count(Test::latency)) {
    for (std::size_t s : c.latency_sizes) {
      if (s > ring_limit) continue;
      const unsigned n = latency_iterations(c, s);
      r.series(r.latency, name).rounds[s].push_back(layer_ping_pong(layer, s, n, n / 10).half_round_trip);
    }
  }
  if (t != Transport::hybrid) return;
  if (c.tests.count(Test::mixed)) {
    r.mixed_row(name).rounds.push_back(layer_mixed_streams(layer, c.mixed_small, c.mixed_large, c.window, c.duration));
  }
  if (c.tests.count(Test::broadcast)) {
    for (int n = 1; n < cluster.size(); ++n) {
      for (std::size_t s : c.sizes) {
        r.series(r.broadcast, "layer-sends", n)
            .rounds[s]
            .push_back(layer_one_to_many(layer, n, broadcast_plan(c, s, n)).bytes_per_second());
      }
    }
  }
}

// Pings alone, then under each flood: as best-effort messages (the flood's
// own class: no priority), and as latency-sensitive ones under each policy.
void priority_round(const Cluster& cluster, const NetbenchConfig& c, NetbenchResults& r) {
  for (PriorityPolicy policy : {PriorityPolicy::strict, PriorityPolicy::weighted}) {
    MessageLayerConfig config = c.layer;
    config.priority_policy = policy;
    MessageLayer layer(cluster, config);
    const std::string policy_name = to_string(policy);
    if (policy == PriorityPolicy::strict) {
      r.priority_row("latency-sensitive, no flood", 0)
          .rounds.push_back(layer_priority_under_load(layer, c.ping_bytes, Priority::latency, 0, c.window, c.duration));
    }
    for (std::size_t flood : c.flood_sizes) {
      if (policy == PriorityPolicy::strict) {
        r.priority_row("best-effort (no priority)", flood)
            .rounds.push_back(
                layer_priority_under_load(layer, c.ping_bytes, Priority::best_effort, flood, c.window, c.duration));
      }
      r.priority_row("latency-sensitive, " + policy_name + " policy", flood)
          .rounds.push_back(layer_priority_under_load(layer, c.ping_bytes, Priority::latency, flood, c.window, c.duration));
    }
  }
}

}  // namespace

void validate(const NetbenchConfig& c, int ranks) {
  if (c.tests.empty()) throw UsageError("--tests names no test");
  if (c.transports.empty()) throw UsageError("--transports names no transport");
  if (c.sizes.empty()) throw UsageError("--sizes names no size");
  if (c.latency_sizes.empty()) throw UsageError("--latency-sizes names no size");
  if (c.flood_sizes.empty()) throw UsageError("--flood-sizes names no size");
  if (c.window < 1 || c.window > 4096) throw UsageError("--window must be between 1 and 4096");
  if (c.iterations < 1) throw UsageError("--iterations must be at least 1");
  if (c.rounds < 1 || c.rounds > 100) throw UsageError("--rounds must be between 1 and 100");
  if (!std::isfinite(c.duration) || c.duration <= 0 || c.duration > 3600) {
    throw UsageError("--duration must be between 0 and 3600 seconds");
  }
  c.layer.validate(ranks);
  if (c.layer.threads == 0 && (c.tests.count(Test::mixed) || c.tests.count(Test::priority))) {
    throw UsageError("netbench's mixed and priority tests send from threads of their own beside the layer: use "
                     "--net-threads 1 or more, or --tests without them");
  }
  validate_message_sizes(c, ranks);
  if (ranks < 2) throw UsageError("netbench measures between ranks: run it with at least 2 (mpirun -np 2)");
}

void run_netbench_round(const Cluster& cluster, const NetbenchConfig& c, NetbenchResults& r) {
  for (Transport t : c.transports) {
    if (t == Transport::mpi) {
      mpi_round(cluster, c, r);
    } else {
      layer_round(cluster, c, t, r);
    }
  }
  if (c.tests.count(Test::priority)) priority_round(cluster, c, r);
}

}  // namespace hpcdb
