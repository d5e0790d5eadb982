#pragma once
// `hpcdb calibrate`: measures the models' rates on this machine and writes
// them as a calibration file.
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct CalibrateOptions {
  std::string output = "calibration.json";
  std::string tuples = "8Mi";
  unsigned partition_bits = 11;
  std::string run_length = "16384";
  unsigned repeat = 3;
  bool concurrent = false;
};

void add_calibrate_options(CLI::App& calibrate, CalibrateOptions& options);
int run_calibrate_command(const Cluster& cluster, const CalibrateOptions& options);

}  // namespace hpcdb
