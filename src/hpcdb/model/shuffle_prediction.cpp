#include "hpcdb/model/shuffle_prediction.hpp"

namespace hpcdb {

double copies_on_node(const ShuffleConfig& config) {
  switch (config.design) {
    case ShuffleDesign::mpi_one_sided: return config.direct_writes ? 0 : 1;
    case ShuffleDesign::message_layer: return config.buffer_bytes - kMessageLayerHeadroom <= config.layer.threshold ? 2 : 1;
    default: return 1;
  }
}

ShuffleModelSetting model_setting(const RowWorkloadSpec& workload, const ShuffleConfig& config,
                                  const ShuffleJobShape& shape, double busiest_share) {
  ShuffleModelSetting s;
  s.rows = static_cast<double>(workload.rows);
  s.row_bytes = workload.row_bytes;
  s.streaming = config.design != ShuffleDesign::mpi_alltoallv;
  // A streaming batch's header travels with its rows.
  s.wire_bytes_per_row =
      s.row_bytes + (s.streaming ? static_cast<double>(kBatchHeaderBytes) / static_cast<double>(rows_per_batch(config)) : 0);
  s.ranks = shape.ranks;
  s.machines = shape.nodes;
  s.threads_per_rank = config.threads;
  s.busiest_receive_share = busiest_share;
  s.copies_on_node = copies_on_node(config);
  return s;
}

std::optional<ModelPrediction> predict(const std::optional<ShuffleRates>& rates, const RowWorkloadSpec& workload,
                                       const ShuffleConfig& config, const ShuffleJobShape& shape, double busiest_share) {
  if (!rates) return std::nullopt;
  return predict_shuffle(model_setting(workload, config, shape, busiest_share), *rates);
}

}  // namespace hpcdb
