#pragma once
// How long one phase of a distributed operator took, over its ranks.
#include <string>

namespace hpcdb {

struct PhaseTime {
  std::string name;
  double max = 0;   // seconds, slowest rank
  double mean = 0;  // seconds, mean over ranks
};

}  // namespace hpcdb
