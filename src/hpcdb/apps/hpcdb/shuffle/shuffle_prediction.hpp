#pragma once
// The shuffle model (model/shuffle_model.hpp) for a design of `hpcdb
// shuffle`: the job's shape and workload, and what the design does with the
// bytes for another rank of the same node.
#include <optional>

#include "hpcdb/apps/hpcdb/shuffle/shuffle_command.hpp"
#include "hpcdb/model/shuffle_model.hpp"

namespace hpcdb {

struct ShuffleJobShape {
  int ranks = 1;
  int nodes = 1;
};

// Copies of every byte for another rank of the same node: none when
// mpi-one-sided partitions straight into the destination's ring; two when
// the message layer's batches go through its rings (the put, and the
// handler's copy out of the ring); one otherwise (Open MPI's and UCX's
// shared-memory transports copy a large message once, from the sender's
// memory into the receiver's, e.g. through cross-memory attach).
double copies_on_node(const ShuffleConfig& config);

// `busiest_share`: the share of all rows the busiest rank receives (0: an
// even share).
ShuffleModelSetting model_setting(const ShufflePlan& plan, const ShuffleConfig& config, const ShuffleJobShape& shape,
                                  double busiest_share);

// The model's prediction for `config`, when the plan has a calibration.
std::optional<ModelPrediction> predict(const ShufflePlan& plan, const ShuffleConfig& config, const ShuffleJobShape& shape,
                                       double busiest_share);

}  // namespace hpcdb
