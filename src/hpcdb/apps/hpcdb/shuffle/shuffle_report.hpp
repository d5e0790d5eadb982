#pragma once
// What `hpcdb shuffle` prints: a header, one line per exchange as it
// finishes, and per design the median run's figures next to the
// mpi-alltoallv baseline; and the same as one JSON document.
#include <nlohmann/json.hpp>

#include <ostream>

#include "hpcdb/api/shuffle.hpp"

namespace hpcdb {

void print_shuffle_header(std::ostream& out, const ShuffleRequest& request, const ShuffleJobShape& shape);
void print_shuffle_run(std::ostream& out, const ShuffleRequest& request, const ShuffleRunRecord& run);
void print_shuffle_summary(std::ostream& out, const ShuffleRequest& request, const ShuffleOutcome& outcome);
nlohmann::ordered_json shuffle_report_json(const ShuffleRequest& request, const ShuffleOutcome& outcome);

}  // namespace hpcdb
