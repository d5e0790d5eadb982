#include "hpcdb/net/bench/network_measures.hpp"

#include <algorithm>

namespace hpcdb {

WindowPlan window_plan(std::size_t bytes, unsigned window, unsigned most, std::size_t budget) {
  const std::size_t per_iteration = std::max<std::size_t>(1, bytes) * window;
  const auto affordable = static_cast<unsigned>(std::min<std::size_t>(budget / per_iteration, most));
  WindowPlan p;
  p.bytes = bytes;
  p.window = window;
  p.iterations = std::max(std::min(5u, most), affordable);
  p.skip = std::max(1u, p.iterations / 10);
  return p;
}

}  // namespace hpcdb
