#pragma once
// The 2012 thesis's data-distribution test (section 6.1) on raw data
// (`hpcdb netbench --all-to-all`). Every rank sends per_peer_bytes to every
// other rank, streamed from one reused buffer in chunks, in each schedule of
// the all-to-all exchange (net/all_to_all_schedule.hpp): synchronized rounds
// with a barrier after each, the same order without barriers, and chunks to
// random ranks. Schedules are interleaved round by round; each run records
// its time, the time each rank finished sending (the "jam" of the
// unsynchronized order shows as a spread) and the barrier waiting.
#include <cstddef>
#include <vector>

#include "hpcdb/net/all_to_all_schedule.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/exchange_transport.hpp"

namespace hpcdb {

struct AllToAllBenchmarkConfig {
  std::size_t per_peer_bytes = std::size_t{64} << 20;
  std::size_t chunk_bytes = std::size_t{1} << 20;
  ExchangeTransport transport = ExchangeTransport::messages;
  std::vector<ExchangeSchedule> schedules;
  unsigned rounds = 3;
  double link_bytes_per_second = 0;  // for the ideal time; 0 = not known
};

struct AllToAllRun {
  double seconds = 0;                 // start to the last piece in place (slowest rank)
  std::vector<double> sending;        // per rank: until its last chunk was sent
  std::vector<double> waiting;        // per rank: in the barriers between rounds
};

struct AllToAllResults {
  AllToAllBenchmarkConfig config;
  int ranks = 0;
  int nodes = 0;
  double load_before = 0, load_after = 0;
  std::vector<std::vector<AllToAllRun>> runs;  // per schedule, per round
};

// Throws UsageError for bad values (before anything is allocated), also
// when `ranks_on_node` ranks' buffers would not fit this node's memory.
void validate(const AllToAllBenchmarkConfig& config, int ranks, int ranks_on_node);

// Collective.
AllToAllResults run_all_to_all_benchmark(const Cluster& cluster, const AllToAllBenchmarkConfig& config);

}  // namespace hpcdb
