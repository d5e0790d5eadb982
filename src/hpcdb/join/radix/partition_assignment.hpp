#pragma once
// Which rank owns (receives, builds and probes) each network partition.
#include <cstdint>
#include <vector>

#include "hpcdb/join/radix/radix_config.hpp"

namespace hpcdb {

// round-robin: partition p goes to rank p mod P.
// skew-aware: partitions sorted by |R_p| + |S_p|, largest first, each given to
// the rank with the least load so far, so the largest never share a rank.
std::vector<int> assign_partitions(const std::vector<std::uint64_t>& inner_counts,
                                   const std::vector<std::uint64_t>& outer_counts, int ranks, Assignment policy);

}  // namespace hpcdb
