#pragma once
// `hpcdb model`: the performance model's prediction for a join on a given
// cluster shape, from a calibration file.
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct ModelOptions {
  std::string algorithm = "radix";
  std::string inner = "32M";
  std::string outer = "32M";
  unsigned ranks = 2;
  unsigned threads = 1;
  unsigned machines = 1;
  double bandwidth_gbit = 0;  // per machine; 0 = the calibration's measured put bandwidth
  std::string calibration = "calibration.json";
  unsigned merge_fan_in = 16;
  unsigned subranges = 0;     // sort-merge: key sub-ranges per rank (0 = as the join chooses)
  bool shared_cores = false;  // or the calibration says so
  std::string schedule = "streaming";  // radix: streaming, or a schedule of the staged exchange
};

void add_model_options(CLI::App& model, ModelOptions& options);
int run_model_command(const Cluster& cluster, const ModelOptions& options);

// The cluster shape a join runs on, as the model sees it.
struct JoinShape {
  double ranks = 1;
  double threads = 1;           // worker threads per rank
  double machines = 1;
  double bandwidth_bytes = 0;   // per machine
  double fan_in = 16;           // sort-merge
  double subranges = 1;         // sort-merge: key sub-ranges per rank
  bool network_shares_cores = false;
  bool presort = true;        // cyclo
  double chunk_bytes = 1 << 20;  // broadcast
  // From the join's plan: bytes per tuple on the wire and in the windows,
  // and the radix join's partitioning passes (one network pass, plus a local one).
  double tuple_bytes = 8;
  unsigned radix_passes = 1;
  bool radix_staged = false;  // a scheduled exchange after a local pass
};

// The model's prediction for a join run with these sizes on this shape.
ModelPrediction predict_join(const std::string& algorithm, const Calibration& calibration, double inner, double outer,
                             const JoinShape& shape);

}  // namespace hpcdb
