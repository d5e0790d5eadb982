#pragma once
// What the messaging benchmarks of `hpcdb netbench` measured, round by round
// (every round runs every transport once, so the transports are compared in
// the same minutes). Figures are rank 0's.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "hpcdb/net/bench/network_measures.hpp"

namespace hpcdb {

// One transport's figure per message size, one value per round.
struct SizeSeries {
  std::string transport;
  int receivers = 1;
  std::map<std::size_t, std::vector<double>> rounds;  // bytes -> values
};

struct MixedRow {
  std::string transport;
  std::vector<MixedStreams> rounds;
};

struct PriorityRow {
  std::string variant;  // what the pings were and what loaded the path
  std::size_t flood_bytes = 0;
  std::vector<PriorityRun> rounds;
};

struct NetbenchResults {
  int ranks = 0;
  int nodes = 0;
  unsigned cores = 0;
  double load_before = 0, load_after = 0;  // 1-minute load average
  std::size_t threshold = 0;
  std::string threshold_source;
  std::size_t ring_bytes = 0;
  unsigned window = 0;
  unsigned net_threads = 0;
  std::vector<SizeSeries> bandwidth;  // bytes/s
  std::vector<SizeSeries> latency;    // seconds, half a round trip
  std::vector<SizeSeries> broadcast;  // bytes/s to each receiver
  std::size_t mixed_small = 0, mixed_large = 0;
  std::vector<MixedRow> mixed;
  std::size_t ping_bytes = 0;
  std::vector<PriorityRow> priority;

  // The row of a transport (and receivers, variant), added when new.
  SizeSeries& series(std::vector<SizeSeries>& of, const std::string& transport, int receivers = 1);
  MixedRow& mixed_row(const std::string& transport);
  PriorityRow& priority_row(const std::string& variant, std::size_t flood_bytes);
};

}  // namespace hpcdb
