#include "hpcdb/apps/hpcdb/netbench/netbench_options.hpp"

#include <algorithm>
#include <sstream>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/named_values.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

constexpr NamedValues<ExchangeTransport, 2> kExchangeNames{
    {{ExchangeTransport::messages, "messages"}, {ExchangeTransport::put, "puts"}}};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void add_all_to_all_options(CLI::App& netbench, NetbenchOptions& o) {
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
  add_all_to_all_options(netbench, o);
}

NetbenchRequest to_netbench_request(const NetbenchOptions& o) {
  NetbenchRequest request;
  NetbenchConfig& c = request.benchmarks;
  for (const std::string& t : split(o.tests)) c.tests.insert(value_named(t, kNetbenchTestNames, "--tests entry"));
  for (const std::string& t : split(o.transports)) {
    c.transports.push_back(value_named(t, kNetbenchTransportNames, "--transports entry"));
  }
  c.sizes = parse_size_list(o.sizes, "--sizes");
  c.latency_sizes = parse_size_list(o.latency_sizes, "--latency-sizes");
  c.flood_sizes = parse_size_list(o.flood_sizes, "--flood-sizes");
  const std::vector<std::size_t> mixed = parse_size_list(o.mixed_sizes, "--mixed-sizes");
  if (mixed.size() != 2) throw UsageError("--mixed-sizes takes two sizes, e.g. 256,64Ki");
  c.mixed_small = std::min(mixed[0], mixed[1]);
  c.mixed_large = std::max(mixed[0], mixed[1]);
  c.ping_bytes = parse_bytes(o.ping_size, "--ping-size");
  c.bytes_per_size = parse_bytes(o.bytes_per_size, "--bytes-per-size");
  c.window = o.window;
  c.iterations = o.iterations;
  c.rounds = o.rounds;
  c.duration = o.duration;
  c.layer = resolve(o.layer);
  request.threshold_source = threshold_source(o.layer);
  return request;
}

AllToAllRequest to_all_to_all_request(const NetbenchOptions& o) {
  if (o.tests_given) throw UsageError("--all-to-all runs alone: leave out --tests and --transports");
  AllToAllRequest request;
  AllToAllBenchmarkConfig& c = request.benchmark;
  c.per_peer_bytes = parse_bytes(o.per_peer, "--per-peer");
  c.chunk_bytes = parse_bytes(o.exchange_chunk, "--exchange-chunk");
  c.transport = value_named(o.exchange, kExchangeNames, "--exchange");
  for (const std::string& name : split(o.schedules)) c.schedules.push_back(parse_exchange_schedule(name));
  c.rounds = o.rounds;
  c.link_bytes_per_second = o.bandwidth_gbit * 1e9 / 8;
  return request;
}

}  // namespace hpcdb
