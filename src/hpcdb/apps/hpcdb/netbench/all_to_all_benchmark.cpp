#include "hpcdb/apps/hpcdb/netbench/all_to_all_benchmark.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "hpcdb/apps/hpcdb/netbench/netbench_results.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/all_to_all_exchange.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/duplicated_comm.hpp"

namespace hpcdb {
namespace {

// Sender s's piece lands in its own slot of each target's receive memory.
std::uint64_t slot_of(int sender, int target, int ranks, std::size_t per_peer) {
  return static_cast<std::uint64_t>((sender - target + ranks) % ranks - 1) * per_peer;
}

AllToAllPlan raw_plan(const Cluster& cluster, const std::byte* data, std::size_t per_peer) {
  const int me = cluster.rank(), ranks = cluster.size();
  AllToAllPlan plan;
  plan.outgoing.resize(static_cast<std::size_t>(ranks));
  plan.incoming.resize(static_cast<std::size_t>(ranks));
  for (int peer = 0; peer < ranks; ++peer) {
    if (peer == me) continue;
    plan.outgoing[static_cast<std::size_t>(peer)].push_back({data, per_peer, slot_of(me, peer, ranks, per_peer)});
    plan.incoming[static_cast<std::size_t>(peer)].push_back({nullptr, per_peer, slot_of(peer, me, ranks, per_peer)});
  }
  return plan;
}

std::vector<double> per_rank(const Cluster& cluster, double value) { return allgather(value, cluster.world()); }

double total_bytes_per_rank(const AllToAllResults& r) {
  return static_cast<double>(r.config.per_peer_bytes) * (r.ranks - 1);
}

double median_seconds(const std::vector<AllToAllRun>& runs) {
  std::vector<double> v;
  for (const AllToAllRun& run : runs) v.push_back(run.seconds);
  return median(v);
}

// Per rank, the median over rounds of one of its figures.
std::vector<double> rank_medians(const std::vector<AllToAllRun>& runs, std::vector<double> AllToAllRun::*field) {
  std::vector<double> out;
  if (runs.empty()) return out;
  for (std::size_t rank = 0; rank < (runs.front().*field).size(); ++rank) {
    std::vector<double> v;
    for (const AllToAllRun& run : runs) v.push_back((run.*field)[rank]);
    out.push_back(median(v));
  }
  return out;
}

}  // namespace

void validate(const AllToAllBenchmarkConfig& c, int ranks, int ranks_on_node) {
  if (c.per_peer_bytes < 1) throw UsageError("--per-peer must be at least 1 byte");
  if (c.chunk_bytes < 64 || c.chunk_bytes > (std::size_t{1} << 30)) {
    throw UsageError("--exchange-chunk must be between 64 B and 1 GiB");
  }
  if (c.schedules.empty()) throw UsageError("--schedules names no schedule");
  if (c.rounds < 1 || c.rounds > 100) throw UsageError("--rounds must be between 1 and 100");
  if (!(c.link_bytes_per_second >= 0)) throw UsageError("--bandwidth must not be negative");
  const double per_rank = static_cast<double>(c.per_peer_bytes) * ranks;  // one send buffer, ranks - 1 receive slots
  const double available = static_cast<double>(available_memory_bytes());
  if (per_rank * ranks_on_node > 0.8 * available) {
    throw UsageError(fmt::format("--per-peer {} needs about {} per rank ({} on this node), more than is available "
                                 "({}): use a smaller --per-peer",
                                 format_bytes(static_cast<double>(c.per_peer_bytes)), format_bytes(per_rank),
                                 format_bytes(per_rank * ranks_on_node), format_bytes(available)));
  }
  if (ranks < 2) throw UsageError("netbench --all-to-all measures between ranks: run it with at least 2 (mpirun -np 2)");
}

AllToAllResults run_all_to_all_benchmark(const Cluster& cluster, const AllToAllBenchmarkConfig& config) {
  AllToAllResults results;
  results.config = config;
  results.ranks = cluster.size();
  results.nodes = cluster.node_count();
  results.runs.resize(config.schedules.size());
  const std::size_t per_peer = config.per_peer_bytes;
  // Raw data: one buffer every target's piece is sent from, and a slot per
  // sender at the receiver; both touched before any timing.
  MemoryRegion data(per_peer, Prefault::yes);
  MemoryRegion receive(per_peer * static_cast<std::size_t>(cluster.size() - 1), Prefault::yes);
  const AllToAllPlan plan = raw_plan(cluster, static_cast<const std::byte*>(data.data()), per_peer);
  const DuplicatedComm comm(cluster.world());
  results.load_before = load_average();
  for (unsigned round = 0; round < config.rounds; ++round) {
    for (std::size_t s = 0; s < config.schedules.size(); ++s) {
      AllToAllExchange exchange(cluster, comm.get(), {static_cast<std::byte*>(receive.data()), receive.bytes()}, config.transport,
                                config.schedules[s], config.chunk_bytes, 1 + round * 7919 + s);
      MPI_Barrier(cluster.world());
      const double start = MPI_Wtime();
      const ExchangeStats stats = exchange.run(plan);
      AllToAllRun run;
      run.seconds = allreduce(MPI_Wtime() - start, MPI_MAX, cluster.world());
      run.sending = per_rank(cluster, stats.sending_seconds);
      run.waiting = per_rank(cluster, stats.waiting_seconds);
      results.runs[s].push_back(std::move(run));
    }
  }
  results.load_after = load_average();
  return results;
}

std::string all_to_all_text(const AllToAllResults& r) {
  const AllToAllBenchmarkConfig& c = r.config;
  const double bytes = total_bytes_per_rank(r);
  std::string out = fmt::format(
      "hpcdb netbench --all-to-all: {} ranks on {} node(s); load average {:.2f} before, {:.2f} after\n"
      "  every rank sends {} to every other rank ({} in all) in chunks of {} by {}; medians over {} round{}\n",
      r.ranks, r.nodes, r.load_before, r.load_after, format_bytes(static_cast<double>(c.per_peer_bytes)),
      format_bytes(bytes), format_bytes(static_cast<double>(c.chunk_bytes)),
      c.transport == ExchangeTransport::put ? "one-sided puts" : "two-sided messages", c.rounds, c.rounds == 1 ? "" : "s");
  const double ideal = c.link_bytes_per_second > 0 ? bytes / c.link_bytes_per_second : 0;
  if (ideal > 0) {
    out += fmt::format("  ideal at {:.0f} Mbit/s per rank: {:.3f} s\n", c.link_bytes_per_second * 8 / 1e6, ideal);
  }
  out += fmt::format("  {:<16} {:>10} {:>12} {:>9} {:>22} {:>9}\n", "schedule", "seconds", "Mbit/s/rank",
                     ideal > 0 ? "x ideal" : "", "ranks done sending, s", "waiting");
  for (std::size_t s = 0; s < c.schedules.size(); ++s) {
    const double seconds = median_seconds(r.runs[s]);
    const std::vector<double> sending = rank_medians(r.runs[s], &AllToAllRun::sending);
    const std::vector<double> waiting = rank_medians(r.runs[s], &AllToAllRun::waiting);
    const double waited = waiting.empty() ? 0 : *std::max_element(waiting.begin(), waiting.end());
    out += fmt::format("  {:<16} {:>10.3f} {:>12.1f} {:>9} {:>10.3f} .. {:<9.3f} {:>8.1f}%\n", to_string(c.schedules[s]),
                       seconds, seconds > 0 ? bytes * 8 / seconds / 1e6 : 0.0,
                       ideal > 0 ? fmt::format("{:.2f}", seconds / ideal) : std::string(),
                       *std::min_element(sending.begin(), sending.end()), *std::max_element(sending.begin(), sending.end()),
                       seconds > 0 ? 100 * waited / seconds : 0.0);
  }
  out += "  thesis section 6.1 (16 nodes, 1 GB to every other node, 870 Mbit/s, ideal 141.2 s): synchronized about "
         "160 s (768 Mbit/s, 7% waiting), random about 223 s (551 Mbit/s), unsynchronized 457 s (268 Mbit/s)\n";
  return out;
}

nlohmann::ordered_json all_to_all_json(const AllToAllResults& r) {
  const AllToAllBenchmarkConfig& c = r.config;
  const double bytes = total_bytes_per_rank(r);
  nlohmann::ordered_json schedules = nlohmann::ordered_json::array();
  for (std::size_t s = 0; s < c.schedules.size(); ++s) {
    const double seconds = median_seconds(r.runs[s]);
    nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
    for (const AllToAllRun& run : r.runs[s]) {
      rounds.push_back({{"seconds", run.seconds}, {"sending_seconds", run.sending}, {"waiting_seconds", run.waiting}});
    }
    schedules.push_back({{"schedule", to_string(c.schedules[s])},
                         {"median_seconds", seconds},
                         {"bits_per_second_per_rank", seconds > 0 ? bytes * 8 / seconds : 0.0},
                         {"over_ideal", c.link_bytes_per_second > 0
                                            ? nlohmann::ordered_json(seconds / (bytes / c.link_bytes_per_second))
                                            : nlohmann::ordered_json(nullptr)},
                         {"sending_seconds_per_rank", rank_medians(r.runs[s], &AllToAllRun::sending)},
                         {"waiting_seconds_per_rank", rank_medians(r.runs[s], &AllToAllRun::waiting)},
                         {"rounds", rounds}});
  }
  return {{"test", "all-to-all"},
          {"ranks", r.ranks},
          {"nodes", r.nodes},
          {"load_average_before", r.load_before},
          {"load_average_after", r.load_after},
          {"per_peer_bytes", c.per_peer_bytes},
          {"bytes_per_rank", bytes},
          {"chunk_bytes", c.chunk_bytes},
          {"transport", c.transport == ExchangeTransport::put ? "puts" : "messages"},
          {"rounds", c.rounds},
          {"link_bits_per_second", c.link_bytes_per_second * 8},
          {"ideal_seconds", c.link_bytes_per_second > 0 ? bytes / c.link_bytes_per_second : 0.0},
          {"schedules", schedules}};
}

}  // namespace hpcdb
