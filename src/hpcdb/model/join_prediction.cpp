#include "hpcdb/model/join_prediction.hpp"

#include <variant>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

JoinShape join_shape(const JoinPlan& plan, const ClusterShape& cluster) {
  JoinShape shape;
  shape.cluster = cluster;
  shape.tuple_bytes = tuple_bytes_of(plan);
  if (const auto* radix = std::get_if<RadixPlan>(&plan)) {
    shape.radix_passes = radix->bits.local > 0 ? 2 : 1;
    shape.radix_staged = radix->config.scheduled;
  }
  if (const auto* sort_merge = std::get_if<SortMergePlan>(&plan)) {
    shape.fan_in = sort_merge->config.merge_fan_in;
    shape.subranges = sort_merge->subranges;
  }
  if (const auto* cyclo = std::get_if<CycloPlan>(&plan)) shape.presort = cyclo->config.presort;
  if (const auto* broadcast = std::get_if<BroadcastPlan>(&plan)) {
    shape.chunk_bytes = static_cast<double>(broadcast->config.chunk_bytes);
  }
  return shape;
}

ModelPrediction predict_join(JoinAlgorithm algorithm, const Calibration& c, double inner, double outer,
                             const JoinShape& shape) {
  ModelSetting s;
  s.inner_tuples = inner;
  s.outer_tuples = outer;
  const ClusterShape& cluster = shape.cluster;
  s.machines = cluster.machines;
  s.threads_per_machine = cluster.ranks * cluster.threads / cluster.machines;
  s.bandwidth_bytes = cluster.bandwidth_bytes;
  s.tuple_bytes = shape.tuple_bytes;
  s.network_shares_cores = cluster.network_shares_cores;
  s.window_seconds = c.window_setup;
  s.staged_exchange = shape.radix_staged;
  switch (algorithm) {
    case JoinAlgorithm::radix: return predict_radix_join(s, c.radix_rates(shape.radix_passes));
    case JoinAlgorithm::sort_merge: {
      SortMergeRates rates = c.sort_merge_rates(shape.fan_in);
      rates.subranges = shape.subranges / cluster.threads;  // the rank's sub-ranges are merged by all its threads
      return predict_sort_merge_join(s, rates);
    }
    case JoinAlgorithm::cyclo:
    case JoinAlgorithm::broadcast: {
      const StreamJoinRates rates{c.scan, c.sort_run, c.merge, c.match > 0 ? c.match : c.scan, c.run_length, shape.presort,
                                  shape.chunk_bytes / s.tuple_bytes, c.lookup};
      return algorithm == JoinAlgorithm::cyclo ? predict_cyclo_join(s, rates) : predict_broadcast_join(s, rates);
    }
  }
  throw Error("unknown join algorithm");
}

}  // namespace hpcdb
