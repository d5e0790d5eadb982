#include "hpcdb/apps/hpcdb/calibrate/calibrate_options.hpp"

#include "hpcdb/core/units.hpp"

namespace hpcdb {

void add_calibrate_options(CLI::App& calibrate, CalibrateOptions& o) {
  calibrate.add_option("--output", o.output, "Calibration file to write (JSON; '-' for standard output, the summary then goes to standard error)")->capture_default_str();
  calibrate.add_option("--tuples", o.tuples, "Tuples per kernel measurement")->capture_default_str();
  calibrate.add_option("--partition-bits", o.partition_bits, "Fan-out (bits) of the measured partitioning pass")
      ->capture_default_str();
  calibrate.add_option("--run-length", o.run_length, "Run length of the measured run sort")->capture_default_str();
  calibrate.add_option("--repeat", o.repeat,
                       "Measurements per rate (the best counts); the window set-up and the message layer's threshold "
                       "take the median of at least 3")
      ->capture_default_str();
  calibrate.add_flag("--concurrent", o.concurrent,
                     "Measure under load, on the job's own layout: every rank runs the kernels at the same time "
                     "(the slowest rank's rate), and every rank puts to all ranks on other nodes at once (bandwidth per machine)");
}

CalibrateRequest to_request(const CalibrateOptions& o) {
  CalibrateRequest r;
  r.output = o.output;
  r.tuples = parse_count(o.tuples, "--tuples");
  r.partition_bits = o.partition_bits;
  r.run_length = parse_count(o.run_length, "--run-length");
  r.repeat = o.repeat;
  r.concurrent = o.concurrent;
  return r;
}

}  // namespace hpcdb
