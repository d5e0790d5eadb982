#pragma once
// The inputs the radix join's kernels are measured on alone, by the
// calibration (kernel_calibration.hpp) and by bench/kernels_bench.cpp:
// unique keys in random order, and the exactly sized partitions the network
// pass writes them into.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/radix/network_partitioner.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

// `n` tuples whose keys are 0..n-1 shuffled (std::mt19937_64 seeded with
// `seed`), rid = position.
AlignedArray<Tuple> shuffled_unique_tuples(std::size_t n, std::uint64_t seed);

// Partitions laid out back to back in one array, each exactly as large as
// its count (as in a rank's receive window): partition p starts at start[p],
// where targets[p] writes.
struct PartitionLayout {
  std::vector<PartitionTarget<std::uint64_t>> targets;
  std::vector<std::uint64_t> start;  // one more than partitions: start.back() = all tuples
};

PartitionLayout lay_out_partitions(const std::vector<std::uint64_t>& counts, std::uint64_t* out);

}  // namespace hpcdb
