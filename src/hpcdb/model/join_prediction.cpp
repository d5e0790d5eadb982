#include "hpcdb/model/join_prediction.hpp"

#include <variant>

namespace hpcdb {

JoinShape join_shape_of(const JoinPlan& plan, const JoinConfigs& configs, double ranks, double machines) {
  JoinShape shape;
  shape.algorithm = configs.algorithm;
  shape.ranks = ranks;
  shape.threads = configs.radix.threads;
  shape.machines = machines;
  shape.fan_in = configs.sort_merge.merge_fan_in;
  shape.tuple_bytes = tuple_bytes_of(plan);
  if (const auto* radix = std::get_if<RadixPlan>(&plan)) {
    shape.radix_passes = radix->bits.local > 0 ? 2 : 1;
    shape.radix_staged = radix->config.scheduled;
  }
  if (const auto* sort_merge = std::get_if<SortMergePlan>(&plan)) shape.subranges = sort_merge->subranges;
  shape.presort = configs.cyclo.presort;
  shape.chunk_bytes = static_cast<double>(configs.algorithm == JoinAlgorithm::cyclo ? configs.cyclo.chunk_bytes
                                                                                     : configs.broadcast.chunk_bytes);
  return shape;
}

ModelPrediction predict_join(const Calibration& c, double inner, double outer, const JoinShape& shape) {
  ModelSetting s;
  s.inner_tuples = inner;
  s.outer_tuples = outer;
  s.machines = shape.machines;
  s.threads_per_machine = shape.ranks * shape.threads / shape.machines;
  s.bandwidth_bytes = shape.bandwidth_bytes;
  s.tuple_bytes = shape.tuple_bytes;
  s.network_shares_cores = shape.network_shares_cores;
  s.window_seconds = c.window_setup;
  s.staged_exchange = shape.radix_staged;
  switch (shape.algorithm) {
    case JoinAlgorithm::cyclo:
    case JoinAlgorithm::broadcast: {
      const StreamJoinRates rates{c.scan,         c.sort_run,    c.merge, c.match > 0 ? c.match : c.scan,
                                  c.run_length,   shape.presort, shape.chunk_bytes / s.tuple_bytes, c.lookup};
      return shape.algorithm == JoinAlgorithm::cyclo ? predict_cyclo_join(s, rates) : predict_broadcast_join(s, rates);
    }
    case JoinAlgorithm::radix: return predict_radix_join(s, c.radix_rates(shape.radix_passes));
    case JoinAlgorithm::sort_merge: break;
  }
  SortMergeRates rates = c.sort_merge_rates(shape.fan_in);
  rates.subranges = shape.subranges / shape.threads;  // the rank's sub-ranges are merged by all its threads
  return predict_sort_merge_join(s, rates);
}

}  // namespace hpcdb
