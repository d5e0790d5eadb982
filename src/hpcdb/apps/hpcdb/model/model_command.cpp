#include "hpcdb/apps/hpcdb/model/model_command.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/core/bits.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/model/join_prediction.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {

void add_model_options(CLI::App& model, ModelOptions& o) {
  model.add_option("--algorithm", o.algorithm, "Join algorithm")
      ->check(CLI::IsMember({"radix", "sort-merge", "cyclo", "broadcast"}))
      ->capture_default_str();
  model.add_option("--inner", o.inner, "Tuples of R")->capture_default_str();
  model.add_option("--outer", o.outer, "Tuples of S")->capture_default_str();
  model.add_option("--ranks", o.ranks, "Ranks in the job")->capture_default_str();
  model.add_option("--threads", o.threads, "Worker threads per rank")->capture_default_str();
  model.add_option("--machines", o.machines, "Machines the ranks are spread over")->capture_default_str();
  model.add_option("--bandwidth", o.bandwidth_gbit,
                   "Network bandwidth per machine in Gbit/s (default: the calibration's measured put bandwidth)");
  model.add_option("--calibration", o.calibration, "Rates measured by 'hpcdb calibrate'")->capture_default_str();
  model.add_option("--merge-fan-in", o.merge_fan_in, "sort-merge: runs merged at once")->capture_default_str();
  model.add_option("--subranges", o.subranges,
                   "sort-merge: key sub-ranges per rank (1 = the thesis; 0 = as 'hpcdb join' chooses them)")
      ->capture_default_str();
  model.add_option("--schedule", o.schedule,
                   "radix: 'streaming' (partitions leave while the pass runs), or a schedule of the staged exchange "
                   "(whole partitions after a local pass: synchronized, unsynchronized, random)")
      ->check(CLI::IsMember({"streaming", "synchronized", "unsynchronized", "random"}))
      ->capture_default_str();
  model.add_flag("--shared-cores", o.shared_cores,
                 "The network's work runs on the join's own cores (hosts emulated on one machine, TCP without "
                 "offload): network and compute time add up; implied by a calibration made on such a layout");
}

namespace {

// A join on the modelled cluster of the data `hpcdb join` generates: keys
// below |R| + |S|, rids below the larger relation's size.
JoinFacts modelled_facts(const ModelOptions& o, std::uint64_t inner, std::uint64_t outer) {
  JoinFacts facts;
  facts.ranks = static_cast<int>(o.ranks);
  facts.nodes = static_cast<int>(o.machines);
  facts.ranks_per_node = static_cast<int>((o.ranks + o.machines - 1) / o.machines);
  facts.inner_tuples = inner;
  facts.outer_tuples = outer;
  facts.largest_inner_fragment = (inner + o.ranks - 1) / o.ranks;
  facts.largest_outer_fragment = (outer + o.ranks - 1) / o.ranks;
  facts.bounds_known = true;
  const std::uint64_t keys = inner + outer, rids = std::max(inner, outer);
  facts.bounds.min_key = 0;
  facts.bounds.max_key = keys > 0 ? keys - 1 : 0;
  facts.bounds.key_or = low_mask(bit_width_of(facts.bounds.max_key));
  facts.bounds.rid_or = rids > 0 ? low_mask(bit_width_of(rids - 1)) : 0;
  return facts;
}

}  // namespace

int run_model_command(const Cluster& cluster, const ModelOptions& o) {
  Calibration c;
  double inner = 0, outer = 0;
  run_collectively(cluster.world(), [&] {
    inner = static_cast<double>(parse_count(o.inner, "--inner"));
    outer = static_cast<double>(parse_count(o.outer, "--outer"));
    if (o.ranks < 1 || o.threads < 1 || o.machines < 1) throw UsageError("--ranks, --threads and --machines must be at least 1");
    if (o.machines > o.ranks) throw UsageError("--machines cannot exceed --ranks");
    if (o.bandwidth_gbit < 0) throw UsageError("--bandwidth must not be negative");
    if (o.merge_fan_in < 2) throw UsageError("--merge-fan-in must be at least 2");
    c = read_calibration(o.calibration);
  });
  // The plan the join would make on that cluster, for generated data.
  JoinFacts facts = modelled_facts(o, static_cast<std::uint64_t>(inner), static_cast<std::uint64_t>(outer));
  facts.cpu = agreed_cpu(cluster.world());
  JoinConfigs configs;
  configs.algorithm = parse_join_algorithm(o.algorithm);
  configs.radix.threads = configs.sort_merge.threads = o.threads;
  configs.radix.scheduled = o.schedule != "streaming";
  configs.sort_merge.run_length = static_cast<std::size_t>(c.run_length);
  configs.sort_merge.merge_fan_in = o.merge_fan_in;
  configs.sort_merge.subranges = o.subranges;
  JoinPlan plan;
  run_collectively(cluster.world(), [&] { plan = plan_join(facts, configs); });
  if (cluster.rank() != 0) return 0;
  const double bandwidth = o.bandwidth_gbit > 0 ? o.bandwidth_gbit * 1e9 / 8 : c.put_bandwidth;
  const bool shared_cores = o.shared_cores || c.network_shares_cores;
  JoinShape shape = join_shape_of(plan, configs, o.ranks, o.machines);
  shape.bandwidth_bytes = bandwidth;
  shape.network_shares_cores = shared_cores;
  const auto subranges = static_cast<unsigned>(shape.subranges);
  const ModelPrediction p = predict_join(c, inner, outer, shape);
  fmt::print("hpcdb model: {} join, |R| = {}, |S| = {}, {} machine{}, {} worker thread{} per machine\n", o.algorithm,
             inner, outer, o.machines, o.machines == 1 ? "" : "s", o.ranks * o.threads / static_cast<double>(o.machines),
             o.ranks * o.threads == o.machines ? "" : "s");
  fmt::print("  rates from {}; network {:.2f} GB/s per machine{}\n", o.calibration, bandwidth / 1e9,
             shared_cores && o.machines > 1 ? ", on the join's own cores" : "");
  fmt::print("  {:<20} {:>10}\n", "phase", "model s");
  for (const PhasePrediction& phase : p.phases) fmt::print("  {:<20} {:>10.4f}\n", phase.name, phase.seconds);
  fmt::print("  {:<20} {:>10.4f}   ({:.1f} M tuples/s)\n", "total", p.seconds, (inner + outer) / p.seconds / 1e6);
  if (o.algorithm == "sort-merge") {
    fmt::print("  merge levels {} + {} (R + S) of fan-in {}, {} key sub-range{} per rank\n", p.merge_levels_inner,
               p.merge_levels_outer, o.merge_fan_in, subranges, subranges == 1 ? "" : "s");
  }
  if (o.machines > 1) {
    fmt::print("  regime: {} (P_network {:.1f} M tuples/s per thread); optimal worker threads per machine: {:.1f}\n",
               p.network_bound ? "network-bound" : "compute-bound", p.network_rate_per_thread / 1e6, p.optimal_threads);
  } else {
    fmt::print("  regime: compute-bound (one machine, no network term)\n");
  }
  return 0;
}

}  // namespace hpcdb
