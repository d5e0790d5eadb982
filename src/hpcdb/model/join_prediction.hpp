#pragma once
// The join model (join_model.hpp) fed from a calibration file's rates and a
// join's plan: the cluster shape a join runs on as the model sees it, and
// the prediction for a run on it.
#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/model/calibration.hpp"
#include "hpcdb/model/join_model.hpp"

namespace hpcdb {

struct JoinShape {
  JoinAlgorithm algorithm = JoinAlgorithm::radix;
  double ranks = 1;
  double threads = 1;           // worker threads per rank
  double machines = 1;
  double bandwidth_bytes = 0;   // per machine
  double fan_in = 16;           // sort-merge
  double subranges = 1;         // sort-merge: key sub-ranges per rank
  bool network_shares_cores = false;
  bool presort = true;           // cyclo
  double chunk_bytes = 1 << 20;  // cyclo and broadcast
  // From the join's plan: bytes per tuple on the wire and in the windows,
  // and the radix join's partitioning passes (one network pass, plus a local one).
  double tuple_bytes = 8;
  unsigned radix_passes = 1;
  bool radix_staged = false;  // a scheduled exchange after a local pass
};

// The shape of a join with this plan on `ranks` ranks over `machines`
// machines (bandwidth and shared cores left to the caller).
JoinShape join_shape_of(const JoinPlan& plan, const JoinConfigs& configs, double ranks, double machines);

// The model's prediction for a join run with these sizes on this shape.
ModelPrediction predict_join(const Calibration& calibration, double inner, double outer, const JoinShape& shape);

}  // namespace hpcdb
