#pragma once
// The per-thread rates of the calibration (calibration.hpp), measured on
// this thread with the operators' own kernels: the radix join's histogram,
// partitioning pass, build and probe; the sort-merge join's run sort, merge
// and matching scan; the broadcast join's key-directory lookups; and the
// shuffle's kernels (shuffle_kernel_rates.hpp).
#include <mpi.h>

#include <cstddef>

#include "hpcdb/model/calibration.hpp"

namespace hpcdb {

struct KernelCalibrationConfig {
  std::size_t tuples = std::size_t{8} << 20;  // per measurement
  unsigned partition_bits = 11;               // fan-out of the partitioning pass
  std::size_t run_length = 16384;             // of the run sort
  unsigned repeat = 3;                        // measurements per rate, the best counts
};

// Fills the kernel rates of `c` (scan to lookup, partition_bits, run_length,
// the shuffle's rates). Throws Error when a kernel's result is wrong.
void measure_kernel_rates(const KernelCalibrationConfig& config, Calibration& c);

// Collective: each kernel rate becomes the slowest rank's (every rank
// measured at once; every phase of a join ends when its slowest rank does).
void take_slowest_rank(MPI_Comm comm, Calibration& c);

}  // namespace hpcdb
