#pragma once
// The options of `hpcdb calibrate` and the request they make (api/calibrate.hpp).
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/api/calibrate.hpp"

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
// UsageError for counts that do not parse.
CalibrateRequest to_request(const CalibrateOptions& options);

}  // namespace hpcdb
