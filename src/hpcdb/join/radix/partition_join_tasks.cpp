#include "hpcdb/join/radix/partition_join_tasks.hpp"

#include <algorithm>

namespace hpcdb {

PartitionJoinTasks plan_partition_joins(const Cluster& cluster, unsigned threads, const PartitionHistograms& histograms,
                                        const PartitionPlacement& placement) {
  const std::vector<int>& owner = placement.owner;
  auto work_of = [&](std::size_t p) { return histograms.inner(p) + histograms.outer(p); };
  std::vector<std::uint64_t> owned_tuples(static_cast<std::size_t>(cluster.size()), 0);
  for (std::size_t p = 0; p < histograms.partitions; ++p) owned_tuples[static_cast<std::size_t>(owner[p])] += work_of(p);
  auto is_heavy = [&](std::size_t p) {
    const std::uint64_t share = owned_tuples[static_cast<std::size_t>(owner[p])] / (4 * threads);
    return threads > 1 && work_of(p) > std::max<std::uint64_t>(65536, share);
  };
  PartitionJoinTasks tasks;
  tasks.normal.resize(static_cast<std::size_t>(cluster.node_size()));
  for (std::size_t p = 0; p < histograms.partitions; ++p) {
    const int list = cluster.node_rank_of(owner[p]);
    if (list < 0) continue;
    if (!is_heavy(p)) {
      tasks.normal[static_cast<std::size_t>(list)].push_back(p);
    } else if (owner[p] == cluster.rank()) {
      tasks.heavy.push_back(p);
    }
  }
  auto by_work = [&](std::size_t a, std::size_t b) { return work_of(a) > work_of(b); };
  for (std::vector<std::size_t>& list : tasks.normal) std::stable_sort(list.begin(), list.end(), by_work);
  std::stable_sort(tasks.heavy.begin(), tasks.heavy.end(), by_work);
  return tasks;
}

}  // namespace hpcdb
