#pragma once
// The broadcast join's plan, agreed by all ranks from the agreed facts: the
// tuple format (sorted_format_plan.hpp), the chunk size, and every rank's S
// fragment, which fixes the global order of chunks (owner by owner).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/join/broadcast/broadcast_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/sorted_format_plan.hpp"

namespace hpcdb {

struct BroadcastPlan {
  BroadcastJoinConfig config;
  SortedFormatPlan format;
  std::size_t chunk_tuples = 0;              // per broadcast chunk (udp: at least a datagram's)
  std::uint64_t largest_inner_fragment = 0;  // tuples
  std::uint64_t largest_outer_fragment = 0;
  std::vector<std::uint64_t> outer_fragments;  // every rank's S fragment, tuples
  MemoryEstimate memory() const;
};

// The plan for these facts; validates the options first (UsageError).
BroadcastPlan plan_broadcast_join(const JoinFacts& facts, const BroadcastJoinConfig& config);

}  // namespace hpcdb
