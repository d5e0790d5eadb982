#pragma once
// What `hpcdb shuffle` prints: a header, one line per exchange as it
// finishes, and per design the median run's figures next to the
// mpi-alltoallv baseline; and the same as one JSON document.
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "hpcdb/apps/hpcdb/shuffle/shuffle_command.hpp"
#include "hpcdb/apps/hpcdb/shuffle/shuffle_prediction.hpp"
#include "hpcdb/shuffle/shuffle.hpp"

namespace hpcdb {

// One exchange of one design, with every rank's figures.
struct ShuffleRunRecord {
  ShuffleDesign design = ShuffleDesign::mpi_alltoallv;
  unsigned repetition = 1;
  double seconds = 0;
  std::vector<ShuffleRankStats> ranks;
  bool checked = false;  // --verify
  std::string failure;   // empty when the check passed
};

// A design as set up once, with every rank's resources.
struct ShuffleDesignRecord {
  ShuffleConfig config;
  double setup_seconds = 0;
  std::vector<ShuffleResources> ranks;
};

void print_shuffle_header(std::ostream& out, const ShufflePlan& plan, const ShuffleJobShape& shape);
void print_shuffle_run(std::ostream& out, const ShufflePlan& plan, const ShuffleRunRecord& run);
void print_shuffle_summary(std::ostream& out, const ShufflePlan& plan, const ShuffleJobShape& shape,
                           const std::vector<ShuffleDesignRecord>& designs, const std::vector<ShuffleRunRecord>& runs);
nlohmann::ordered_json shuffle_report_json(const ShufflePlan& plan, const ShuffleJobShape& shape,
                                           const std::vector<ShuffleDesignRecord>& designs,
                                           const std::vector<ShuffleRunRecord>& runs);

}  // namespace hpcdb
