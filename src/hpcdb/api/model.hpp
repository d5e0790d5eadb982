#pragma once
// The models: the join model's prediction per phase for a join of given
// sizes on a given cluster, from a calibration file, with the plan the join
// would make there for generated data (model/join_prediction.hpp).
#include <cstdint>
#include <string>

#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/model/join_prediction.hpp"
#include "hpcdb/net/all_to_all_schedule.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct ModelRequest {
  JoinAlgorithm algorithm = JoinAlgorithm::radix;
  std::uint64_t inner_tuples = 32'000'000;  // |R|
  std::uint64_t outer_tuples = 32'000'000;  // |S|
  unsigned ranks = 2;                       // of the modelled job
  unsigned threads = 1;                     // worker threads per rank
  unsigned machines = 1;                    // the ranks are spread over, at most ranks
  double bandwidth_bytes = 0;               // per machine, bytes/s; 0: the calibration's put bandwidth
  std::string calibration = "calibration.json";  // a file 'hpcdb calibrate' wrote
  unsigned merge_fan_in = 16;               // sort-merge: runs merged at once, at least 2
  unsigned subranges = 0;                   // sort-merge: key sub-ranges per rank (0: as the join chooses)
  // The network's work runs on the join's cores (or the calibration says so).
  bool shared_cores = false;
  // radix: partitions leave while the pass runs (streaming), or whole after
  // a local pass in `schedule` (staged).
  bool staged_exchange = false;
  ExchangeSchedule schedule = ExchangeSchedule::synchronized;
};

struct ModelResult {
  Calibration calibration;     // as read from the file
  JoinShape shape;             // the modelled cluster and the plan's choices
  ModelPrediction prediction;  // per phase
};

// UsageError (naming the command-line options) for bad values.
void validate(const ModelRequest& request);

// Collective (the plan is agreed by every rank): validates, reads the
// calibration, plans the join on the modelled cluster, predicts. The result
// is the same on every rank.
ModelResult run_model(const Cluster& cluster, const ModelRequest& request);

}  // namespace hpcdb
