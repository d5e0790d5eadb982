#include "hpcdb/api/model.hpp"

#include <algorithm>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {
namespace {

// A join on the modelled cluster of the data `hpcdb join` generates: keys
// below |R| + |S|, rids below the larger relation's size.
JoinFacts modelled_facts(const ModelRequest& r) {
  const std::uint64_t inner = r.inner_tuples, outer = r.outer_tuples;
  JoinFacts facts;
  facts.ranks = static_cast<int>(r.ranks);
  facts.nodes = static_cast<int>(r.machines);
  facts.ranks_per_node = static_cast<int>((r.ranks + r.machines - 1) / r.machines);
  facts.inner_tuples = inner;
  facts.outer_tuples = outer;
  facts.largest_inner_fragment = (inner + r.ranks - 1) / r.ranks;
  facts.largest_outer_fragment = (outer + r.ranks - 1) / r.ranks;
  facts.bounds_known = true;
  const std::uint64_t keys = inner + outer, rids = std::max(inner, outer);
  facts.bounds.min_key = 0;
  facts.bounds.max_key = keys > 0 ? keys - 1 : 0;
  facts.bounds.key_or = low_mask(bit_width_of(facts.bounds.max_key));
  facts.bounds.rid_or = rids > 0 ? low_mask(bit_width_of(rids - 1)) : 0;
  return facts;
}

JoinConfigs modelled_configs(const ModelRequest& r, const Calibration& c) {
  JoinConfigs configs;
  configs.algorithm = r.algorithm;
  configs.radix.threads = configs.sort_merge.threads = r.threads;
  configs.radix.scheduled = r.staged_exchange;
  if (r.staged_exchange) configs.radix.exchange.schedule = r.schedule;
  configs.sort_merge.run_length = static_cast<std::size_t>(c.run_length);
  configs.sort_merge.merge_fan_in = r.merge_fan_in;
  configs.sort_merge.subranges = r.subranges;
  return configs;
}

}  // namespace

void validate(const ModelRequest& r) {
  if (r.ranks < 1 || r.threads < 1 || r.machines < 1) throw UsageError("--ranks, --threads and --machines must be at least 1");
  if (r.machines > r.ranks) throw UsageError("--machines cannot exceed --ranks");
  if (r.bandwidth_bytes < 0) throw UsageError("--bandwidth must not be negative");
  if (r.merge_fan_in < 2) throw UsageError("--merge-fan-in must be at least 2");
}

ModelResult run_model(const Cluster& cluster, const ModelRequest& request) {
  ModelResult result;
  Calibration& c = result.calibration;
  run_collectively(cluster.world(), [&] {
    validate(request);
    c = read_calibration(request.calibration);
  });
  // The plan the join would make on that cluster, for generated data.
  JoinFacts facts = modelled_facts(request);
  facts.cpu = agreed_cpu(cluster.world());
  JoinPlan plan;
  run_collectively(cluster.world(), [&] { plan = plan_join(facts, modelled_configs(request, c)); });
  const ClusterShape modelled{static_cast<double>(request.ranks), static_cast<double>(request.threads),
                              static_cast<double>(request.machines),
                              request.bandwidth_bytes > 0 ? request.bandwidth_bytes : c.put_bandwidth,
                              request.shared_cores || c.network_shares_cores};
  result.shape = join_shape(plan, modelled);
  run_collectively(cluster.world(), [&] {
    result.prediction = predict_join(request.algorithm, c, static_cast<double>(request.inner_tuples),
                                     static_cast<double>(request.outer_tuples), result.shape);
  });
  return result;
}

}  // namespace hpcdb
