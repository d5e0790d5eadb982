#pragma once
// Which partitions the ranks of a node join, and in what order. Every rank
// classifies every partition the same way (from the global histograms), so
// the node-wide lists are the same on each rank of the node:
//   normal  per node rank, the partitions it owns, largest first; one worker
//           joins each, and with node sharing any worker of the node may
//           take any of them once its own rank's are done;
//   heavy   this rank's partitions holding more of its work than one thread
//           can balance, joined by all of its threads together.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/join/radix/partition_histograms.hpp"
#include "hpcdb/join/radix/partition_placement.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct PartitionJoinTasks {
  std::vector<std::vector<std::size_t>> normal;  // per node rank
  std::vector<std::size_t> heavy;                // this rank's
};

PartitionJoinTasks plan_partition_joins(const Cluster& cluster, unsigned threads, const PartitionHistograms& histograms,
                                        const PartitionPlacement& placement);

}  // namespace hpcdb
