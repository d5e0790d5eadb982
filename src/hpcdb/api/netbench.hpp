#pragma once
// The network benchmarks: OSU-style messaging measurements of plain MPI and
// of the message layer's paths (net/bench/netbench_suite.hpp), or the
// all-to-all exchange's schedules on raw data
// (net/bench/all_to_all_benchmark.hpp).
#include <functional>
#include <string>

#include "hpcdb/net/bench/all_to_all_benchmark.hpp"
#include "hpcdb/net/bench/netbench_results.hpp"
#include "hpcdb/net/bench/netbench_suite.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct NetbenchRequest {
  NetbenchConfig benchmarks;
  // Where benchmarks.layer.threshold came from, as the results report it
  // ("default", "--threshold", "calibration FILE").
  std::string threshold_source = "default";
};

// UsageError (naming the command-line options) for bad values, and for fewer than 2 ranks.
void validate(const NetbenchRequest& request, int ranks);

// Called on every rank after each round (`done` of `rounds`).
using NetbenchRoundObserver = std::function<void(unsigned done, unsigned rounds)>;

// Collective: validates on every rank alike, then runs the rounds. The
// results are complete on rank 0.
NetbenchResults run_netbench(const Cluster& cluster, const NetbenchRequest& request,
                             const NetbenchRoundObserver& on_round = {});

struct AllToAllRequest {
  AllToAllBenchmarkConfig benchmark;
};

// UsageError for bad values, for buffers that `ranks_on_node` ranks could
// not fit in this node's memory, and for fewer than 2 ranks.
void validate(const AllToAllRequest& request, int ranks, int ranks_on_node);

// Collective: validates on every rank alike, then runs every schedule
// `rounds` times, interleaved. The results are complete on every rank.
AllToAllResults run_all_to_all(const Cluster& cluster, const AllToAllRequest& request);

}  // namespace hpcdb
