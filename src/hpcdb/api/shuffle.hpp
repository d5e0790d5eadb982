#pragma once
// Library entry point: the shuffle (exchange) operator on generated rows,
// one or several designs set up once and run repeatedly, interleaved, with
// every rank's figures gathered, each exchange optionally checked against
// an independent reference (every row arrived once, at its destination),
// and the model's prediction when rates are given.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/model/shuffle_prediction.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/shuffle.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"

namespace hpcdb {

struct ShuffleRequest {
  RowWorkloadSpec workload;
  std::vector<ShuffleConfig> designs;  // in the order they run within a repetition
  unsigned repeat = 1;
  bool verify = false;
  std::string calibration;    // rates for the model (a file 'hpcdb calibrate' wrote); empty: none
  double progress_timeout = 5;  // seconds a rank may be silent before every rank ends
  std::string report_file;      // a file the caller writes afterwards ("-": standard output), checked first
};

// One exchange of one design, with every rank's figures (at rank 0).
struct ShuffleRunRecord {
  ShuffleDesign design = ShuffleDesign::mpi_alltoallv;
  unsigned repetition = 1;
  double seconds = 0;
  std::vector<ShuffleRankStats> ranks;
  bool checked = false;  // verify
  std::string failure;   // empty when the check passed
};

// A design as set up once, with every rank's resources (at rank 0).
struct ShuffleDesignRecord {
  ShuffleConfig config;
  double setup_seconds = 0;
  std::vector<ShuffleResources> ranks;
};

struct ShuffleOutcome {
  ShuffleJobShape shape;
  std::optional<ShuffleRates> model_rates;  // from the calibration
  std::vector<ShuffleDesignRecord> designs;
  std::vector<ShuffleRunRecord> runs;
  bool all_verified() const;
};

// Called on every rank: once every design is set up (`runs` empty), and
// after each exchange (its record the last of `runs`).
struct ShuffleObserver {
  std::function<void(const ShuffleOutcome&)> designs_ready;
  std::function<void(const ShuffleOutcome&)> exchange_done;
};

// Throws UsageError for a request that cannot run (empty design list,
// invalid configs, a calibration without shuffle rates).
void validate(const ShuffleRequest& request);

// Collective; throws UsageError on every rank alike for a bad request or one
// that does not fit this node's memory.
ShuffleOutcome run_shuffle(const Cluster& cluster, const ShuffleRequest& request, const ShuffleObserver& observer = {});

}  // namespace hpcdb
