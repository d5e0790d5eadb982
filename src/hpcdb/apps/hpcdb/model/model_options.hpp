#pragma once
// The options of `hpcdb model` and the request they make (api/model.hpp).
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/api/model.hpp"

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
// UsageError for counts that do not parse.
ModelRequest to_request(const ModelOptions& options);

}  // namespace hpcdb
