#pragma once
// The shuffle model's rates, measured on one core with the shuffle's own
// kernels (see model/shuffle_model.hpp): routing rows (the baseline's
// counting pass), partitioning them into batch buffers (the streaming
// designs' direct stores into a few reused 256 KiB buffers per destination),
// and hpcdb shuffle's consumer, at 16- and 64-byte rows into 4 destinations.
#include <cstddef>

#include "hpcdb/model/shuffle_model.hpp"

namespace hpcdb {

struct ShuffleKernelRates {
  WidthRates count, partition, consume;
};

// `rows` rows per measurement, the best of `repeat`.
ShuffleKernelRates measure_shuffle_kernels(std::size_t rows, unsigned repeat);

}  // namespace hpcdb
