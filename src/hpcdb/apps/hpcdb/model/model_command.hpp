#pragma once
// `hpcdb model`: the performance model's prediction for a join on a given
// cluster shape, from a calibration file.
#include "hpcdb/apps/hpcdb/model/model_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_model_command(const Cluster& cluster, const ModelOptions& options);

}  // namespace hpcdb
