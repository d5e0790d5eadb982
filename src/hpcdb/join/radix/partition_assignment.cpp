#include "hpcdb/join/radix/partition_assignment.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

namespace hpcdb {

std::vector<int> assign_partitions(const std::vector<std::uint64_t>& inner_counts,
                                   const std::vector<std::uint64_t>& outer_counts, int ranks, Assignment policy) {
  const std::size_t partitions = inner_counts.size();
  std::vector<int> owner(partitions);
  if (policy == Assignment::round_robin) {
    for (std::size_t p = 0; p < partitions; ++p) owner[p] = static_cast<int>(p % static_cast<std::size_t>(ranks));
    return owner;
  }
  std::vector<std::size_t> order(partitions);
  std::iota(order.begin(), order.end(), 0);
  auto size_of = [&](std::size_t p) { return inner_counts[p] + outer_counts[p]; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return size_of(a) > size_of(b); });
  using Load = std::pair<std::uint64_t, int>;  // (tuples so far, rank): least loaded, then lowest rank
  std::priority_queue<Load, std::vector<Load>, std::greater<>> loads;
  for (int r = 0; r < ranks; ++r) loads.push({0, r});
  for (std::size_t p : order) {
    auto [load, rank] = loads.top();
    loads.pop();
    owner[p] = rank;
    loads.push({load + size_of(p), rank});
  }
  return owner;
}

}  // namespace hpcdb
