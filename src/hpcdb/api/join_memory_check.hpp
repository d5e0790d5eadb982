#pragma once
// Whether a join fits this node's memory: its inputs, and what its plan sets
// aside (join_memory.hpp), with the reference join and payloads when asked
// for. Refused with the estimate and the options that drive it.
#include <cstdint>

#include "hpcdb/api/join.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct JoinInputSizes {
  std::uint64_t inner = 0;
  std::uint64_t outer = 0;
};

// The sizes of the request's relations (of the files as they are now).
JoinInputSizes input_sizes_of(const JoinRequest& request);

// Throws UsageError when the join does not fit. Checked twice: before
// anything is allocated (with the plan for the densest data of these sizes,
// the least it could need), and once the data is there and its plan agreed
// (exact; the inputs are held by then, `inputs_held`). Returns what the join
// itself needs per rank (without the reference join and payloads).
std::uint64_t check_join_memory(const Cluster& cluster, const JoinRequest& request, JoinInputSizes sizes,
                                const MemoryEstimate& join, bool inputs_held);

}  // namespace hpcdb
