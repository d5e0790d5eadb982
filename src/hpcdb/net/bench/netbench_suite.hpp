#pragma once
// The messaging benchmarks of `hpcdb netbench`, OSU-style: plain MPI next to
// the message layer's paths (every message on the one-sided ring, every
// message two-sided, or split at the threshold): bandwidth over a size
// sweep, ping-pong latency, two sizes at once, one-to-many, and round trips
// of latency-sensitive messages under a best-effort flood.
#include <cstddef>
#include <set>
#include <vector>

#include "hpcdb/core/named_values.hpp"
#include "hpcdb/net/bench/netbench_results.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/messaging/message_layer_config.hpp"

namespace hpcdb {

enum class NetbenchTest { bandwidth, latency, mixed, broadcast, priority };
inline constexpr NamedValues<NetbenchTest, 5> kNetbenchTestNames{{{NetbenchTest::bandwidth, "bandwidth"},
                                                                  {NetbenchTest::latency, "latency"},
                                                                  {NetbenchTest::mixed, "mixed"},
                                                                  {NetbenchTest::broadcast, "broadcast"},
                                                                  {NetbenchTest::priority, "priority"}}};

// What carries the bandwidth and latency messages: plain MPI, or the layer
// with every message on the ring, every message two-sided, or split at the
// threshold (the mixed and broadcast tests run on mpi and hybrid).
enum class NetbenchTransport { mpi, ring, two_sided, hybrid };
inline constexpr NamedValues<NetbenchTransport, 4> kNetbenchTransportNames{{{NetbenchTransport::mpi, "mpi"},
                                                                            {NetbenchTransport::ring, "ring"},
                                                                            {NetbenchTransport::two_sided, "two-sided"},
                                                                            {NetbenchTransport::hybrid, "hybrid"}}};

struct NetbenchConfig {
  std::set<NetbenchTest> tests;
  std::vector<NetbenchTransport> transports;     // in the order each round runs them
  std::vector<std::size_t> sizes;                // bytes: bandwidth and broadcast
  std::vector<std::size_t> latency_sizes;        // bytes: ping-pong
  std::vector<std::size_t> flood_sizes;          // bytes: the priority test's flood
  std::size_t mixed_small = 256, mixed_large = 64 << 10;  // the mixed test's two sizes
  std::size_t ping_bytes = 64;                   // the priority test's pings
  std::size_t bytes_per_size = 64 << 20;         // to move per size and round (sets the windows)
  unsigned window = 64;                          // messages before an acknowledgement
  unsigned iterations = 100;                     // timed windows per size, at most
  unsigned rounds = 3;
  double duration = 0.5;                         // seconds per run of the mixed and priority tests
  MessageLayerConfig layer;
};

// Throws UsageError (naming the command-line options) for bad values, for
// messages or windows the layer could not carry, and for fewer than 2 ranks.
void validate(const NetbenchConfig& config, int ranks);

// Collective: one round, every transport once in turn and then the priority
// test, appended to `results` (valid on rank 0).
void run_netbench_round(const Cluster& cluster, const NetbenchConfig& config, NetbenchResults& results);

}  // namespace hpcdb
