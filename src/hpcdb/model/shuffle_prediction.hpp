#pragma once
// The shuffle model (model/shuffle_model.hpp) for a design of the shuffle
// operator: the job's shape and workload, and what the design does with the
// bytes for another rank of the same node.
#include <optional>

#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/model/shuffle_model.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"

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
ShuffleModelSetting model_setting(const RowWorkloadSpec& workload, const ShuffleConfig& config,
                                  const ShuffleJobShape& shape, double busiest_share);

// The model's prediction for `config`, when there are rates.
std::optional<ModelPrediction> predict(const std::optional<ShuffleRates>& rates, const RowWorkloadSpec& workload,
                                       const ShuffleConfig& config, const ShuffleJobShape& shape, double busiest_share);

}  // namespace hpcdb
