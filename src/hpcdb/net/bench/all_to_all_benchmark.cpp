#include "hpcdb/net/bench/all_to_all_benchmark.hpp"

#include <fmt/format.h>

#include <cmath>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/statistics.hpp"
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

}  // namespace

void validate(const AllToAllBenchmarkConfig& c, int ranks, int ranks_on_node) {
  if (c.per_peer_bytes < 1) throw UsageError("--per-peer must be at least 1 byte");
  if (c.chunk_bytes < 64 || c.chunk_bytes > (std::size_t{1} << 30)) {
    throw UsageError("--exchange-chunk must be between 64 B and 1 GiB");
  }
  if (c.schedules.empty()) throw UsageError("--schedules names no schedule");
  if (c.rounds < 1 || c.rounds > 100) throw UsageError("--rounds must be between 1 and 100");
  if (!std::isfinite(c.link_bytes_per_second)) throw UsageError("--bandwidth must be a number of Gbit/s");
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

}  // namespace hpcdb
