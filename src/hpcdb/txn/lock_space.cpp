#include "hpcdb/txn/lock_space.hpp"

#include <algorithm>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

LockSpace::LockSpace(std::uint32_t partitions, std::vector<int> agent_ranks)
    : partitions_(partitions), agent_ranks_(std::move(agent_ranks)) {
  const auto agents = static_cast<std::uint32_t>(agent_ranks_.size());
  if (agents == 0) throw UsageError("there must be at least one lock agent");
  if (partitions > kMaxPartitions) {
    throw UsageError("at most " + std::to_string(kMaxPartitions) + " partitions (warehouses) are supported, not " +
                     std::to_string(partitions));
  }
  if (partitions < agents) {
    throw UsageError("every lock agent needs a partition of its own: " + std::to_string(agents) +
                     " lock agents but only " + std::to_string(partitions) +
                     " partitions (raise --warehouses or lower --lock-agents)");
  }
  first_partition_.resize(agents + 1);
  for (std::uint32_t a = 0; a <= agents; ++a) {
    first_partition_[a] = a * (partitions / agents) + std::min(a, partitions % agents);
  }
}

int LockSpace::agent_of_partition(std::uint32_t partition) const {
  const auto above = std::upper_bound(first_partition_.begin(), first_partition_.end(), partition);
  return static_cast<int>(above - first_partition_.begin()) - 1;
}

int LockSpace::owner_of(LockId lock) const {
  const std::uint32_t p = partition_of(lock);
  if (p >= partitions_) {
    throw Error("lock " + std::to_string(lock) + " names partition " + std::to_string(p) + ", but there are only " +
                std::to_string(partitions_));
  }
  return agent_ranks_[static_cast<std::size_t>(agent_of_partition(p))];
}

}  // namespace hpcdb
