#pragma once
// Facts about the processor that the kernels size themselves by.
#include <cstddef>

namespace hpcdb {

struct CpuInfo {
  std::size_t l1d_bytes = 32 * 1024;
  std::size_t l2_bytes = 512 * 1024;   // per core
  std::size_t l3_bytes = 16u << 20;    // whole cache, shared
  unsigned cores = 1;                  // online logical CPUs
  bool avx2 = false;
};

// Reads cache sizes from sysfs (falls back to the defaults above).
CpuInfo detect_cpu();

}  // namespace hpcdb
