#include "hpcdb/api/netbench.hpp"

#include "hpcdb/core/cpu_info.hpp"
#include "hpcdb/core/statistics.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {
namespace {

// What the results say about the job and the layer before any round runs.
NetbenchResults results_header(const Cluster& cluster, const NetbenchRequest& request) {
  const NetbenchConfig& c = request.benchmarks;
  NetbenchResults r;
  r.ranks = cluster.size();
  r.nodes = cluster.node_count();
  r.cores = detect_cpu().cores;
  r.threshold = c.layer.threshold;
  r.threshold_source = request.threshold_source;
  r.ring_bytes = c.layer.ring_bytes;
  r.window = c.window;
  r.net_threads = c.layer.threads;
  r.mixed_small = c.mixed_small;
  r.mixed_large = c.mixed_large;
  r.ping_bytes = c.ping_bytes;
  return r;
}

}  // namespace

void validate(const NetbenchRequest& request, int ranks) { validate(request.benchmarks, ranks); }

NetbenchResults run_netbench(const Cluster& cluster, const NetbenchRequest& request, const NetbenchRoundObserver& on_round) {
  run_collectively(cluster.world(), [&] { validate(request, cluster.size()); });
  NetbenchResults r = results_header(cluster, request);
  r.load_before = load_average();
  const unsigned rounds = request.benchmarks.rounds;
  for (unsigned round = 0; round < rounds; ++round) {
    run_netbench_round(cluster, request.benchmarks, r);
    if (on_round) on_round(round + 1, rounds);
  }
  r.load_after = load_average();
  return r;
}

void validate(const AllToAllRequest& request, int ranks, int ranks_on_node) {
  validate(request.benchmark, ranks, ranks_on_node);
}

AllToAllResults run_all_to_all(const Cluster& cluster, const AllToAllRequest& request) {
  run_collectively(cluster.world(), [&] { validate(request, cluster.size(), cluster.node_size()); });
  return run_all_to_all_benchmark(cluster, request.benchmark);
}

}  // namespace hpcdb
