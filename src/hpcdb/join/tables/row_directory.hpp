#pragma once
// Which rank holds a global row of a distributed table: rank r holds rows
// [first[r], first[r + 1]) (rank order, distributed_table.hpp).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

class RowDirectory {
 public:
  // Collective.
  RowDirectory(const Cluster& cluster, const DistributedTable& table);

  int owner(std::uint64_t row) const {
    const auto it = std::upper_bound(first_.begin(), first_.end(), row);
    return static_cast<int>(it - first_.begin()) - 1;
  }
  std::uint64_t first(int rank) const { return first_[static_cast<std::size_t>(rank)]; }
  std::uint64_t total() const { return first_.back(); }

 private:
  std::vector<std::uint64_t> first_;  // ranks + 1
};

}  // namespace hpcdb
