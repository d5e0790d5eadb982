#pragma once
// CPU time of the calling thread: what an operator's work costs, whatever
// else runs on the machine (wall-clock times on a shared machine are not).
#include <time.h>

namespace hpcdb {

inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace hpcdb
