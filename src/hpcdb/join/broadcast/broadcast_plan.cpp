#include "hpcdb/join/broadcast/broadcast_plan.hpp"

#include <algorithm>

#include "hpcdb/join/broadcast/udp_broadcast_stream.hpp"
#include "hpcdb/join/key_directory.hpp"

namespace hpcdb {

BroadcastPlan plan_broadcast_join(const JoinFacts& facts, const BroadcastJoinConfig& config) {
  validate(config);
  BroadcastPlan plan;
  plan.config = config;
  plan.format = plan_sorted_format(facts, config.compression);
  plan.chunk_tuples = config.chunk_bytes / plan.format.tuple_bytes;
  if (config.transport == BroadcastTransport::udp) {
    plan.chunk_tuples = std::max(plan.chunk_tuples, UdpBroadcastStream::datagram_values(plan.format.tuple_bytes));
  }
  plan.largest_inner_fragment = facts.largest_inner_fragment;
  plan.largest_outer_fragment = facts.largest_outer_fragment;
  plan.outer_fragments = facts.outer_fragments;
  return plan;
}

MemoryEstimate BroadcastPlan::memory() const {
  const std::uint64_t tuple = format.tuple_bytes;
  MemoryEstimate m;
  m.add("sorted R", largest_inner_fragment * tuple);
  m.add("R's key directory", key_directory_bytes(largest_inner_fragment));
  m.add("sort space", std::max<std::uint64_t>(largest_inner_fragment, chunk_tuples) * tuple);
  m.add("chunks in flight", (config.depth + 1) * static_cast<std::uint64_t>(chunk_tuples * tuple));
  m.add("visiting chunk", chunk_tuples * tuple);
  return m;
}

}  // namespace hpcdb
