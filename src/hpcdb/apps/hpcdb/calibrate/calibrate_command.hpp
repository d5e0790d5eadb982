#pragma once
// `hpcdb calibrate`: measures the models' rates on this machine and writes
// them as a calibration file.
#include "hpcdb/apps/hpcdb/calibrate/calibrate_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_calibrate_command(const Cluster& cluster, const CalibrateOptions& options);

}  // namespace hpcdb
