#pragma once
// The best (shortest) of repeated timings: what a calibration counts as a
// kernel's time, the runs disturbed by other work left out.
#include <algorithm>

#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

// Seconds of the fastest of `repeat` calls of body().
template <class Body>
double best_seconds(unsigned repeat, Body&& body) {
  double best = 1e300;
  for (unsigned k = 0; k < repeat; ++k) {
    Stopwatch watch;
    body();
    best = std::min(best, watch.seconds());
  }
  return best;
}

}  // namespace hpcdb
