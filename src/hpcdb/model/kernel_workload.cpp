#include "hpcdb/model/kernel_workload.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace hpcdb {

AlignedArray<Tuple> shuffled_unique_tuples(std::size_t n, std::uint64_t seed) {
  AlignedArray<Tuple> tuples(n);
  std::vector<std::uint64_t> keys(n);
  std::iota(keys.begin(), keys.end(), 0);
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(seed));
  for (std::size_t i = 0; i < n; ++i) tuples[i] = {keys[i], i};
  return tuples;
}

PartitionLayout lay_out_partitions(const std::vector<std::uint64_t>& counts, std::uint64_t* out) {
  PartitionLayout layout;
  layout.targets.resize(counts.size());
  layout.start.assign(counts.size() + 1, 0);
  for (std::size_t p = 0; p < counts.size(); ++p) {
    layout.targets[p].direct = out + layout.start[p];
    layout.start[p + 1] = layout.start[p] + counts[p];
  }
  return layout;
}

}  // namespace hpcdb
