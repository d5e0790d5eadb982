#include "hpcdb/apps/hpcdb/model/model_report.hpp"

#include <fmt/format.h>

namespace hpcdb {

void print_model_report(const ModelRequest& r, const ModelResult& result) {
  const ModelPrediction& p = result.prediction;
  const ClusterShape& cluster = result.shape.cluster;
  const double inner = static_cast<double>(r.inner_tuples), outer = static_cast<double>(r.outer_tuples);
  fmt::print("hpcdb model: {} join, |R| = {}, |S| = {}, {} machine{}, {} worker thread{} per machine\n",
             to_string(r.algorithm), inner, outer, r.machines, r.machines == 1 ? "" : "s",
             r.ranks * r.threads / static_cast<double>(r.machines), r.ranks * r.threads == r.machines ? "" : "s");
  fmt::print("  rates from {}; network {:.2f} GB/s per machine{}\n", r.calibration, cluster.bandwidth_bytes / 1e9,
             cluster.network_shares_cores && r.machines > 1 ? ", on the join's own cores" : "");
  fmt::print("  {:<20} {:>10}\n", "phase", "model s");
  for (const PhasePrediction& phase : p.phases) fmt::print("  {:<20} {:>10.4f}\n", phase.name, phase.seconds);
  fmt::print("  {:<20} {:>10.4f}   ({:.1f} M tuples/s)\n", "total", p.seconds, (inner + outer) / p.seconds / 1e6);
  if (r.algorithm == JoinAlgorithm::sort_merge) {
    const auto subranges = static_cast<unsigned>(result.shape.subranges);
    fmt::print("  merge levels {} + {} (R + S) of fan-in {}, {} key sub-range{} per rank\n", p.merge_levels_inner,
               p.merge_levels_outer, r.merge_fan_in, subranges, subranges == 1 ? "" : "s");
  }
  if (r.machines > 1) {
    fmt::print("  regime: {} (P_network {:.1f} M tuples/s per thread); optimal worker threads per machine: {:.1f}\n",
               p.network_bound ? "network-bound" : "compute-bound", p.network_rate_per_thread / 1e6, p.optimal_threads);
  } else {
    fmt::print("  regime: compute-bound (one machine, no network term)\n");
  }
}

}  // namespace hpcdb
