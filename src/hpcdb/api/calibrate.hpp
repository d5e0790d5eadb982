#pragma once
// Calibrate: measure the performance models' rates on this machine with the
// operators' own kernels (and, with 2 or more ranks, the network between
// ranks 0 and 1 and the message layer's hybrid threshold), and write them as
// a calibration file (model/calibration.hpp).
#include <cstddef>
#include <string>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/model/network_calibration.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct CalibrateRequest {
  std::string output = "calibration.json";  // the calibration file; "-": standard output
  std::size_t tuples = std::size_t{8} << 20;  // per kernel measurement, 4096 to 2^31
  unsigned partition_bits = 11;               // fan-out of the measured partitioning pass, 1 to 16
  std::size_t run_length = 16384;             // of the measured run sort, at least 16
  unsigned repeat = 3;                        // measurements per rate (the best counts), at least 1
  // Measure under load, on the job's own layout: every rank runs the kernels
  // at the same time (the slowest rank's rate), and every rank puts to all
  // ranks on other nodes at once (bandwidth per machine).
  bool concurrent = false;
};

struct CalibrateResult {
  Calibration calibration;         // as written to the file
  ThresholdSweep threshold_sweep;  // the message layer's sweep (empty with one rank)
  unsigned median_runs = 3;        // measurements behind the window set-up and threshold medians
  // put_bandwidth is all ranks' per machine (concurrent, on several nodes),
  // else rank 0 -> 1's.
  bool put_bandwidth_per_machine = false;
};

// UsageError (naming the command-line options) for values out of range, and
// when the kernels' memory on `ranks_on_node` ranks (with `concurrent`) would
// not fit this node's.
void validate(const CalibrateRequest& request, int ranks_on_node);

// Collective: validates (and checks the output path) on every rank alike,
// measures, and writes the calibration file from rank 0. The result is
// complete on rank 0 (without `concurrent` the kernels run on rank 0 alone,
// and the sweep's rates are rank 0's).
CalibrateResult run_calibrate(const Cluster& cluster, const CalibrateRequest& request);

}  // namespace hpcdb
