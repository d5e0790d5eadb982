#include "hpcdb/apps/hpcdb/netbench/netbench_command.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "hpcdb/apps/hpcdb/netbench/all_to_all_benchmark.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/netbench/layer_benchmarks.hpp"
#include "hpcdb/apps/hpcdb/netbench/mpi_benchmarks.hpp"
#include "hpcdb/apps/hpcdb/netbench/netbench_results.hpp"
#include "hpcdb/core/cpu_info.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/named_values.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/messaging/message_header.hpp"

namespace hpcdb {
namespace {

enum class Test { bandwidth, latency, mixed, broadcast, priority };
constexpr NamedValues<Test, 5> kTestNames{{{Test::bandwidth, "bandwidth"},
                                           {Test::latency, "latency"},
                                           {Test::mixed, "mixed"},
                                           {Test::broadcast, "broadcast"},
                                           {Test::priority, "priority"}}};

// What carries the messages: plain MPI, or the layer with every message on
// the ring, every message two-sided, or split at the threshold.
enum class Transport { mpi, ring, two_sided, hybrid };
constexpr NamedValues<Transport, 4> kTransportNames{
    {{Transport::mpi, "mpi"}, {Transport::ring, "ring"}, {Transport::two_sided, "two-sided"}, {Transport::hybrid, "hybrid"}}};

struct NetbenchPlan {
  std::set<Test> tests;
  std::vector<Transport> transports;
  std::vector<std::size_t> sizes, latency_sizes, flood_sizes;
  std::size_t mixed_small = 0, mixed_large = 0, ping_bytes = 0;
  std::size_t budget = 0;
  unsigned window = 0, iterations = 0, rounds = 0;
  double duration = 0;
  MessageLayerConfig layer;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

NetbenchPlan plan_of(const NetbenchOptions& o, int ranks) {
  NetbenchPlan p;
  for (const std::string& t : split(o.tests)) p.tests.insert(value_named(t, kTestNames, "--tests entry"));
  for (const std::string& t : split(o.transports)) p.transports.push_back(value_named(t, kTransportNames, "--transports entry"));
  if (p.tests.empty()) throw UsageError("--tests names no test");
  if (p.transports.empty()) throw UsageError("--transports names no transport");
  p.sizes = parse_size_list(o.sizes, "--sizes");
  p.latency_sizes = parse_size_list(o.latency_sizes, "--latency-sizes");
  p.flood_sizes = parse_size_list(o.flood_sizes, "--flood-sizes");
  const std::vector<std::size_t> mixed = parse_size_list(o.mixed_sizes, "--mixed-sizes");
  if (mixed.size() != 2) throw UsageError("--mixed-sizes takes two sizes, e.g. 256,64Ki");
  p.mixed_small = std::min(mixed[0], mixed[1]);
  p.mixed_large = std::max(mixed[0], mixed[1]);
  p.ping_bytes = parse_bytes(o.ping_size, "--ping-size");
  p.budget = parse_bytes(o.bytes_per_size, "--bytes-per-size");
  p.window = o.window;
  p.iterations = o.iterations;
  p.rounds = o.rounds;
  p.duration = o.duration;
  if (p.window < 1 || p.window > 4096) throw UsageError("--window must be between 1 and 4096");
  if (p.iterations < 1) throw UsageError("--iterations must be at least 1");
  if (p.rounds < 1 || p.rounds > 100) throw UsageError("--rounds must be between 1 and 100");
  if (!std::isfinite(p.duration) || p.duration <= 0 || p.duration > 3600) {
    throw UsageError("--duration must be between 0 and 3600 seconds");
  }
  p.layer = resolve(o.layer);
  p.layer.validate(ranks);
  if (p.layer.threads == 0 && (p.tests.count(Test::mixed) || p.tests.count(Test::priority))) {
    throw UsageError("netbench's mixed and priority tests send from threads of their own beside the layer: use "
                     "--net-threads 1 or more, or --tests without them");
  }
  std::size_t largest = std::max({p.mixed_large, p.ping_bytes, p.sizes.back(), p.latency_sizes.back(), p.flood_sizes.back()});
  if (largest > p.layer.max_message) {
    throw UsageError("netbench sends messages of up to " + std::to_string(largest) + " bytes, more than --max-message " +
                     std::to_string(p.layer.max_message));
  }
  // The sender's buffers of a window are all in flight at once.
  std::size_t in_flight = 0;
  if (p.tests.count(Test::bandwidth)) in_flight = std::max(in_flight, p.window * p.sizes.back());
  if (p.tests.count(Test::broadcast)) {
    in_flight = std::max(in_flight, p.window * p.sizes.back() * static_cast<std::size_t>(ranks - 1));
  }
  if (p.tests.count(Test::mixed)) in_flight = std::max(in_flight, p.window * (p.mixed_small + p.mixed_large));
  if (p.tests.count(Test::priority)) in_flight = std::max(in_flight, p.window * p.flood_sizes.back());
  if (in_flight > p.layer.pool_bytes) {
    throw UsageError("windows of " + std::to_string(p.window) + " messages need up to " +
                     format_bytes(static_cast<double>(in_flight)) + " of buffers at once, more than --pool-bytes " +
                     format_bytes(static_cast<double>(p.layer.pool_bytes)) +
                     ": raise --pool-bytes, or lower --window or the largest size");
  }
  if (ranks < 2) throw UsageError("netbench measures between ranks: run it with at least 2 (mpirun -np 2)");
  return p;
}

MessageLayerConfig config_for(Transport t, MessageLayerConfig c) {
  if (t == Transport::ring) c.threshold = c.ring_bytes - sizeof(MessageHeader);
  if (t == Transport::two_sided) c.threshold = 0;
  return c;
}

unsigned latency_iterations(const NetbenchPlan& p, std::size_t bytes) {
  const std::size_t affordable = p.budget / (2 * std::max<std::size_t>(bytes, 64)) / 16;
  return static_cast<unsigned>(std::clamp<std::size_t>(affordable, 50, 2000));
}

// Windows of `bytes` to each of `receivers`, as many as the byte budget of
// one size allows for all of them together.
WindowPlan broadcast_plan(const NetbenchPlan& p, std::size_t bytes, int receivers) {
  WindowPlan plan = window_plan(bytes * static_cast<std::size_t>(receivers), p.window, p.iterations, p.budget);
  plan.bytes = bytes;
  return plan;
}

void mpi_round(const Cluster& cluster, const NetbenchPlan& p, NetbenchResults& r) {
  const MPI_Comm world = cluster.world();
  if (p.tests.count(Test::bandwidth)) {
    for (std::size_t s : p.sizes) {
      r.series(r.bandwidth, "mpi").rounds[s].push_back(
          mpi_bandwidth(world, window_plan(s, p.window, p.iterations, p.budget)).bytes_per_second());
    }
  }
  if (p.tests.count(Test::latency)) {
    for (std::size_t s : p.latency_sizes) {
      const unsigned n = latency_iterations(p, s);
      r.series(r.latency, "mpi").rounds[s].push_back(mpi_ping_pong(world, s, n, n / 10).half_round_trip);
    }
  }
  if (p.tests.count(Test::mixed)) {
    r.mixed_row("mpi").rounds.push_back(mpi_mixed_streams(world, p.mixed_small, p.mixed_large, p.window, p.duration));
  }
  if (p.tests.count(Test::broadcast)) {
    for (int n = 1; n < cluster.size(); ++n) {
      for (std::size_t s : p.sizes) {
        const WindowPlan each = broadcast_plan(p, s, n);
        r.series(r.broadcast, "mpi-bcast", n).rounds[s].push_back(mpi_broadcast(world, n, each).bytes_per_second());
        r.series(r.broadcast, "mpi-sends", n).rounds[s].push_back(mpi_multiple_sends(world, n, each).bytes_per_second());
      }
    }
  }
}

void layer_round(const Cluster& cluster, const NetbenchPlan& p, Transport t, NetbenchResults& r) {
  const MessageLayerConfig config = config_for(t, p.layer);
  const std::string name(name_of(t, kTransportNames));
  MessageLayer layer(cluster, config);
  const std::size_t ring_limit = t == Transport::ring ? config.threshold : SIZE_MAX;
  if (p.tests.count(Test::bandwidth)) {
    for (std::size_t s : p.sizes) {
      if (s > ring_limit) continue;
      r.series(r.bandwidth, name).rounds[s].push_back(
          layer_bandwidth(layer, window_plan(s, p.window, p.iterations, p.budget)).bytes_per_second());
    }
  }
  if (p.tests.count(Test::latency)) {
    for (std::size_t s : p.latency_sizes) {
      if (s > ring_limit) continue;
      const unsigned n = latency_iterations(p, s);
      r.series(r.latency, name).rounds[s].push_back(layer_ping_pong(layer, s, n, n / 10).half_round_trip);
    }
  }
  if (t != Transport::hybrid) return;
  if (p.tests.count(Test::mixed)) {
    r.mixed_row(name).rounds.push_back(layer_mixed_streams(layer, p.mixed_small, p.mixed_large, p.window, p.duration));
  }
  if (p.tests.count(Test::broadcast)) {
    for (int n = 1; n < cluster.size(); ++n) {
      for (std::size_t s : p.sizes) {
        r.series(r.broadcast, "layer-sends", n)
            .rounds[s]
            .push_back(layer_one_to_many(layer, n, broadcast_plan(p, s, n)).bytes_per_second());
      }
    }
  }
}

PriorityRow& priority_row(NetbenchResults& r, const std::string& variant, std::size_t flood) {
  for (PriorityRow& row : r.priority) {
    if (row.variant == variant && row.flood_bytes == flood) return row;
  }
  return r.priority.emplace_back(PriorityRow{variant, flood, {}});
}

// Pings alone, then under each flood: as best-effort messages (the flood's
// own class: no priority), and as latency-sensitive ones under each policy.
void priority_round(const Cluster& cluster, const NetbenchPlan& p, NetbenchResults& r) {
  for (PriorityPolicy policy : {PriorityPolicy::strict, PriorityPolicy::weighted}) {
    MessageLayerConfig config = p.layer;
    config.priority_policy = policy;
    MessageLayer layer(cluster, config);
    const std::string policy_name = to_string(policy);
    if (policy == PriorityPolicy::strict) {
      priority_row(r, "latency-sensitive, no flood", 0)
          .rounds.push_back(layer_priority_under_load(layer, p.ping_bytes, Priority::latency, 0, p.window, p.duration));
    }
    for (std::size_t flood : p.flood_sizes) {
      if (policy == PriorityPolicy::strict) {
        priority_row(r, "best-effort (no priority)", flood)
            .rounds.push_back(
                layer_priority_under_load(layer, p.ping_bytes, Priority::best_effort, flood, p.window, p.duration));
      }
      priority_row(r, "latency-sensitive, " + policy_name + " policy", flood)
          .rounds.push_back(layer_priority_under_load(layer, p.ping_bytes, Priority::latency, flood, p.window, p.duration));
    }
  }
}

}  // namespace

std::vector<std::size_t> parse_size_list(const std::string& text, const std::string& what) {
  std::vector<std::size_t> sizes;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
    if (parts.size() < 2 || parts.size() > 3) throw UsageError(what + ": use FROM:TO, FROM:TO:FACTOR or a list A,B,C");
    const std::size_t from = parse_bytes(parts[0], what), to = parse_bytes(parts[1], what);
    const std::size_t factor = parts.size() == 3 ? parse_count(parts[2], what) : 2;
    if (factor < 2) throw UsageError(what + ": the factor must be at least 2");
    if (to < from) throw UsageError(what + ": '" + text + "' ends before it starts");
    for (std::size_t s = from; s <= to; s = s == 0 ? 1 : s * factor) {
      sizes.push_back(s);
      if (s > to / factor) break;
    }
  } else {
    for (const std::string& part : split(text)) sizes.push_back(parse_bytes(part, what));
    std::sort(sizes.begin(), sizes.end());
  }
  if (sizes.empty()) throw UsageError(what + " names no size");
  return sizes;
}

void add_netbench_options(CLI::App& netbench, NetbenchOptions& o) {
  netbench.add_option("--tests", o.tests,
                      "Which measurements, comma-separated: bandwidth (windows of messages, then an acknowledgement, "
                      "over --sizes), latency (ping-pong over --latency-sizes), mixed (two sizes at once, --mixed-sizes), "
                      "broadcast (rank 0 to 1..N-1 receivers: MPI_Bcast, one MPI_Isend per receiver, the layer's sends), "
                      "priority (round trips of --ping-size messages under a best-effort flood of --flood-sizes)")
      ->capture_default_str();
  netbench.add_option("--transports", o.transports,
                      "What carries bandwidth and latency messages: mpi (plain MPI_Isend/MPI_Irecv and MPI_Send/MPI_Recv, "
                      "one reused buffer), ring (the layer, every message through the one-sided ring), two-sided (the "
                      "layer, every message MPI_Isend/MPI_Mrecv), hybrid (the layer split at --threshold)")
      ->capture_default_str();
  netbench.add_option("--sizes", o.sizes, "Message sizes of bandwidth and broadcast: FROM:TO[:FACTOR] or A,B,C")
      ->capture_default_str();
  netbench.add_option("--latency-sizes", o.latency_sizes, "Message sizes of the ping-pong")->capture_default_str();
  netbench.add_option("--window", o.window, "Messages sent before waiting for an acknowledgement")->capture_default_str();
  netbench.add_option("--iterations", o.iterations, "Timed windows per size, at most (fewer for large sizes)")
      ->capture_default_str();
  netbench.add_option("--bytes-per-size", o.bytes_per_size, "Bytes to move per size and round (sets the windows)")
      ->capture_default_str();
  netbench.add_option("--rounds", o.rounds,
                      "Rounds; every round runs every transport once (interleaved), medians are reported")
      ->capture_default_str();
  netbench.add_option("--mixed-sizes", o.mixed_sizes, "The two sizes of the mixed test")->capture_default_str();
  netbench.add_option("--flood-sizes", o.flood_sizes, "Best-effort flood message sizes of the priority test")
      ->capture_default_str();
  netbench.add_option("--ping-size", o.ping_size, "Ping size of the priority test")->capture_default_str();
  netbench.add_option("--duration", o.duration, "Seconds per run of the mixed and priority tests")->capture_default_str();
  netbench.add_option("--json", o.json, "Write the results as JSON to FILE, or to standard output with '-'");
  add_message_layer_options(netbench, o.layer);
  for (const char* name : {"--tests", "--transports"}) {
    netbench.get_option(name)->each([&o](const std::string&) { o.tests_given = true; });
  }
  netbench.add_flag("--all-to-all", o.all_to_all,
                    "Instead of the tests above: the data distribution of the 2012 thesis (section 6.1) on raw data. "
                    "Every rank sends --per-peer bytes to every other rank in chunks, in each of --schedules: "
                    "synchronized (round k: rank + k, a barrier after each round, so no two senders share a "
                    "receiver), unsynchronized (the same order without barriers) and random (chunks to random ranks "
                    "still owed data); --rounds interleave them");
  netbench.add_option("--per-peer", o.per_peer, "--all-to-all: bytes every rank sends to every other rank")
      ->capture_default_str();
  netbench.add_option("--schedules", o.schedules, "--all-to-all: schedules to measure, comma-separated")
      ->capture_default_str();
  netbench.add_option("--exchange", o.exchange,
                      "--all-to-all: two-sided 'messages' (as the thesis sent over TCP) or one-sided 'puts'")
      ->check(CLI::IsMember({"messages", "puts"}))
      ->capture_default_str();
  netbench.add_option("--exchange-chunk", o.exchange_chunk, "--all-to-all: bytes per message or put (the thesis: 1 MB)")
      ->capture_default_str();
  netbench.add_option("--bandwidth", o.bandwidth_gbit,
                      "--all-to-all: each rank's link rate in Gbit/s, for the ideal time (0 = not shown)")
      ->capture_default_str();
}

namespace {

AllToAllBenchmarkConfig all_to_all_config(const NetbenchOptions& o, const Cluster& cluster) {
  if (o.tests_given) throw UsageError("--all-to-all runs alone: leave out --tests and --transports");
  AllToAllBenchmarkConfig c;
  c.per_peer_bytes = parse_bytes(o.per_peer, "--per-peer");
  c.chunk_bytes = parse_bytes(o.exchange_chunk, "--exchange-chunk");
  c.transport = o.exchange == "puts" ? ExchangeTransport::put : ExchangeTransport::messages;
  for (const std::string& name : split(o.schedules)) c.schedules.push_back(parse_exchange_schedule(name));
  c.rounds = o.rounds;
  if (!std::isfinite(o.bandwidth_gbit)) throw UsageError("--bandwidth must be a number of Gbit/s");
  c.link_bytes_per_second = o.bandwidth_gbit * 1e9 / 8;
  validate(c, cluster.size(), cluster.node_size());
  return c;
}

int run_all_to_all(const Cluster& cluster, const NetbenchOptions& o) {
  AllToAllBenchmarkConfig config;
  run_collectively(cluster.world(), [&] {
    config = all_to_all_config(o, cluster);
    if (cluster.rank() == 0) check_output_path(o.json, "JSON file");
  });
  const AllToAllResults results = run_all_to_all_benchmark(cluster, config);
  std::ostream& text = o.json == "-" ? std::cerr : std::cout;
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    text << all_to_all_text(results) << std::flush;
    if (!o.json.empty()) write_json(o.json, all_to_all_json(results));
  });
  return 0;
}

}  // namespace

int run_netbench_command(const Cluster& cluster, const NetbenchOptions& o) {
  if (o.all_to_all) return run_all_to_all(cluster, o);
  NetbenchPlan plan;
  run_collectively(cluster.world(), [&] {
    plan = plan_of(o, cluster.size());
    if (cluster.rank() == 0) check_output_path(o.json, "JSON file");
  });
  NetbenchResults r;
  r.ranks = cluster.size();
  r.nodes = cluster.node_count();
  r.cores = detect_cpu().cores;
  r.threshold = plan.layer.threshold;
  r.threshold_source = threshold_source(o.layer);
  r.ring_bytes = plan.layer.ring_bytes;
  r.window = plan.window;
  r.net_threads = plan.layer.threads;
  r.mixed_small = plan.mixed_small;
  r.mixed_large = plan.mixed_large;
  r.ping_bytes = plan.ping_bytes;
  r.load_before = load_average();
  std::ostream& text = o.json == "-" ? std::cerr : std::cout;
  for (unsigned round = 0; round < plan.rounds; ++round) {
    for (Transport t : plan.transports) {
      if (t == Transport::mpi) {
        mpi_round(cluster, plan, r);
      } else {
        layer_round(cluster, plan, t, r);
      }
    }
    if (plan.tests.count(Test::priority)) priority_round(cluster, plan, r);
    if (cluster.rank() == 0) text << "round " << round + 1 << " of " << plan.rounds << " done\n" << std::flush;
  }
  r.load_after = load_average();
  // Rank 0 reports; a failed output ends every rank.
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    text << netbench_text(r) << std::flush;
    if (!o.json.empty()) write_json(o.json, netbench_json(r));
  });
  return 0;
}

}  // namespace hpcdb
