#include "hpcdb/join/radix/partition_join_tasks.hpp"

#include <algorithm>

namespace hpcdb {

unsigned slices_for(std::uint64_t inner, std::uint64_t outer, unsigned workers) {
  const std::uint64_t smaller = std::min(inner, outer);
  const std::uint64_t larger = std::max(inner, outer);
  if (smaller == 0) return 1;  // joins nothing
  return static_cast<unsigned>(std::clamp<std::uint64_t>(larger / smaller, 1, std::max(workers, 1u)));
}

std::vector<PartitionSlice> cut_partition(std::size_t p, std::uint64_t inner, std::uint64_t outer, unsigned slices) {
  const bool cut_inner = inner > outer;
  const std::uint64_t larger = cut_inner ? inner : outer;
  std::vector<PartitionSlice> cut;
  for (unsigned i = 0; i < slices; ++i) {
    const std::uint64_t begin = larger * i / slices;
    const std::uint64_t end = larger * (i + 1) / slices;
    PartitionSlice slice{p, 0, inner, 0, outer};
    if (cut_inner) {
      slice.r_begin = begin;
      slice.r_end = end;
    } else {
      slice.s_begin = begin;
      slice.s_end = end;
    }
    cut.push_back(slice);
  }
  return cut;
}

PartitionJoinTasks plan_partition_joins(const Cluster& cluster, unsigned threads, bool share_node_work,
                                        const PartitionHistograms& histograms, const PartitionPlacement& placement) {
  const std::vector<int>& owner = placement.owner;
  const auto node_size = static_cast<unsigned>(cluster.node_size());
  auto work_of = [&](std::size_t p) { return histograms.inner(p) + histograms.outer(p); };
  std::vector<std::uint64_t> owned_tuples(static_cast<std::size_t>(cluster.size()), 0);
  std::uint64_t node_tuples = 0;
  for (std::size_t p = 0; p < histograms.partitions; ++p) {
    owned_tuples[static_cast<std::size_t>(owner[p])] += work_of(p);
    if (cluster.node_rank_of(owner[p]) >= 0) node_tuples += work_of(p);
  }
  // Threads of a rank share a heavy partition's tables; ranks of a node,
  // which share no tables, split it instead.
  const bool threads_share = threads > 1;
  const bool ranks_split = !threads_share && share_node_work && node_size > 1;
  auto is_heavy = [&](std::size_t p) {
    if (threads_share) {
      return work_of(p) > std::max(kSplitFloorTuples, owned_tuples[static_cast<std::size_t>(owner[p])] / (4 * threads));
    }
    return ranks_split && work_of(p) > std::max(kSplitFloorTuples, node_tuples / (4 * node_size));
  };
  PartitionJoinTasks tasks;
  tasks.normal.resize(node_size);
  for (std::size_t p = 0; p < histograms.partitions; ++p) {
    const int list = cluster.node_rank_of(owner[p]);
    if (list < 0) continue;
    const bool heavy = is_heavy(p);
    const unsigned slices = heavy && ranks_split ? slices_for(histograms.inner(p), histograms.outer(p), node_size) : 1;
    if (heavy && threads_share) {
      if (owner[p] == cluster.rank()) tasks.heavy.push_back(p);
    } else if (slices > 1) {
      if (owner[p] == cluster.rank()) ++tasks.split_partitions;
      const std::vector<PartitionSlice> cut = cut_partition(p, histograms.inner(p), histograms.outer(p), slices);
      for (unsigned i = 0; i < slices; ++i) tasks.normal[(static_cast<unsigned>(list) + i) % node_size].push_back(cut[i]);
    } else {
      tasks.normal[static_cast<std::size_t>(list)].push_back({p, 0, histograms.inner(p), 0, histograms.outer(p)});
    }
  }
  auto by_work = [](const PartitionSlice& a, const PartitionSlice& b) { return a.work() > b.work(); };
  for (std::vector<PartitionSlice>& list : tasks.normal) std::stable_sort(list.begin(), list.end(), by_work);
  std::stable_sort(tasks.heavy.begin(), tasks.heavy.end(), [&](std::size_t a, std::size_t b) { return work_of(a) > work_of(b); });
  return tasks;
}

}  // namespace hpcdb
