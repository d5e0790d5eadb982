#pragma once
// The cyclo join's plan, agreed by all ranks from the agreed facts: the
// tuple format (sorted_format_plan.hpp), and two ring buffers per rank sized
// for the largest S fragment.
#include <cstdint>

#include "hpcdb/join/cyclo/cyclo_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/sorted_format_plan.hpp"

namespace hpcdb {

struct CycloPlan {
  CycloJoinConfig config;
  SortedFormatPlan format;
  std::uint64_t largest_inner_fragment = 0;  // tuples
  std::uint64_t largest_outer_fragment = 0;  // tuples: a ring buffer holds one part
  MemoryEstimate memory() const;
};

// The plan for these facts; validates the options first (UsageError).
CycloPlan plan_cyclo_join(const JoinFacts& facts, const CycloJoinConfig& config);

// Bytes rounded up to whole cache lines (at least one).
std::size_t whole_lines(std::uint64_t bytes);

}  // namespace hpcdb
