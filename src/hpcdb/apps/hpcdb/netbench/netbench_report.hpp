#pragma once
// How `hpcdb netbench` prints its messaging measurements: tables for people,
// JSON for programs, medians over rounds.
#include <nlohmann/json.hpp>

#include <string>

#include "hpcdb/net/bench/netbench_results.hpp"

namespace hpcdb {

std::string netbench_text(const NetbenchResults& results);
nlohmann::ordered_json netbench_json(const NetbenchResults& results);

}  // namespace hpcdb
