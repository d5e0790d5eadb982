#pragma once
// The join model (join_model.hpp) for one join: the cluster it runs on and
// what its plan decided, as the model sees them, and the model's prediction
// from a calibration.
#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/model/calibration.hpp"
#include "hpcdb/model/join_model.hpp"

namespace hpcdb {

// The job a join runs in.
struct ClusterShape {
  double ranks = 1;
  double threads = 1;                 // worker threads per rank
  double machines = 1;
  double bandwidth_bytes = 0;         // per machine, bytes/s
  bool network_shares_cores = false;  // the network's work runs on the join's cores
};

// A join as the model sees it: its cluster and what its plan decided.
struct JoinShape {
  ClusterShape cluster;
  double tuple_bytes = 8;        // on the wire and in the windows
  unsigned radix_passes = 1;     // radix: one network pass, plus a local one
  bool radix_staged = false;     // radix: a scheduled exchange after a local pass
  double fan_in = 16;            // sort-merge: runs merged at once
  double subranges = 1;          // sort-merge: key sub-ranges per rank
  bool presort = true;           // cyclo: parts travel sorted
  double chunk_bytes = 1 << 20;  // broadcast: bytes per chunk of S
};

// The shape of the join `plan` on `cluster`: the sort-merge join's fan-in
// and key sub-ranges, the cyclo join's presorting, the broadcast join's
// chunks, the radix join's passes and exchange, the tuple size.
JoinShape join_shape(const JoinPlan& plan, const ClusterShape& cluster);

// The model's prediction for a join run with these sizes on this shape
// (UsageError for rates or a shape the model cannot use).
ModelPrediction predict_join(JoinAlgorithm algorithm, const Calibration& calibration, double inner, double outer,
                             const JoinShape& shape);

}  // namespace hpcdb
