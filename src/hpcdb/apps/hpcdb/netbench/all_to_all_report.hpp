#pragma once
// How `hpcdb netbench --all-to-all` prints its runs: each schedule's median
// time, the effective rate per rank, the time each rank finished sending and
// the barrier waiting, as a table for people and JSON for programs.
#include <nlohmann/json.hpp>

#include <string>

#include "hpcdb/net/bench/all_to_all_benchmark.hpp"

namespace hpcdb {

std::string all_to_all_text(const AllToAllResults& results);
nlohmann::ordered_json all_to_all_json(const AllToAllResults& results);

}  // namespace hpcdb
