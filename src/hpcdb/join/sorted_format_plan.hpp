#pragma once
// The tuple format of the joins that sort (sort-merge, cyclo, broadcast),
// chosen once from the agreed facts: 8-byte values ((key - min key) << rid
// bits | rid) when the keys' offsets and the rids fit together, so that
// sorting the plain values sorts by key; else 16-byte tuples. While the
// bounds are unknown (memory estimates before the data exists), 16 bytes.
#include "hpcdb/join/join_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/key_bounds.hpp"
#include "hpcdb/kernels/sort_formats.hpp"

namespace hpcdb {

struct SortedFormatPlan {
  KeyBounds bounds;  // of both relations over every rank (empty when unknown)
  bool compressed = false;
  unsigned tuple_bytes = 16;

  // Calls f(format) with the plan's format (OffsetCompressedFormat or WideTupleFormat).
  template <class F>
  decltype(auto) with_format(F&& f) const {
    if (compressed) return f(OffsetCompressedFormat{bounds.empty() ? 0 : bounds.min_key, bounds.rid_bits()});
    return f(WideTupleFormat{});
  }
};

inline SortedFormatPlan plan_sorted_format(const JoinFacts& facts, Compression compression) {
  SortedFormatPlan plan;
  if (facts.bounds_known) plan.bounds = facts.bounds;
  plan.compressed = facts.bounds_known && plan.bounds.compressible(compression);
  plan.tuple_bytes = plan.compressed ? 8 : 16;
  return plan;
}

}  // namespace hpcdb
