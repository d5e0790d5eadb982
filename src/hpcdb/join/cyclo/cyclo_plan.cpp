#include "hpcdb/join/cyclo/cyclo_plan.hpp"

#include <algorithm>

namespace hpcdb {

std::size_t whole_lines(std::uint64_t bytes) {
  return static_cast<std::size_t>((std::max<std::uint64_t>(bytes, 1) + 63) / 64 * 64);
}

CycloPlan plan_cyclo_join(const JoinFacts& facts, const CycloJoinConfig& config) {
  validate(config);
  CycloPlan plan;
  plan.config = config;
  plan.format = plan_sorted_format(facts, config.compression);
  plan.largest_inner_fragment = facts.largest_inner_fragment;
  plan.largest_outer_fragment = facts.largest_outer_fragment;
  return plan;
}

MemoryEstimate CycloPlan::memory() const {
  const std::uint64_t tuple = format.tuple_bytes;
  const std::uint64_t inner = largest_inner_fragment, outer = largest_outer_fragment;
  MemoryEstimate m;
  m.add("ring buffers", 2 * whole_lines(outer * tuple));
  m.add("sorted R", whole_lines(inner * tuple));
  m.add("sort space", whole_lines(std::max(inner, outer) * tuple));
  if (!config.presort) m.add("visiting part", whole_lines(outer * tuple));
  return m;
}

}  // namespace hpcdb
