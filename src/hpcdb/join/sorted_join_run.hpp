#pragma once
// What the joins of sorted fragments (cyclo, broadcast) share around their
// phases: the tuple format all ranks agree on, and one timed run in it.
#include <mpi.h>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/injected_fault.hpp"
#include "hpcdb/join/join_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/key_bounds.hpp"
#include "hpcdb/join/sortmerge/sort_formats.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct SortedFormatPlan {
  KeyBounds bounds;
  bool compressed = false;  // 8-byte (key - min key) << rid bits | rid
  unsigned tuple_bytes = 16;
};

// From the agreed facts (16-byte tuples while the bounds are unknown).
inline SortedFormatPlan plan_sorted_format(const JoinFacts& facts, Compression compression) {
  SortedFormatPlan plan;
  if (facts.bounds_known) plan.bounds = facts.bounds;
  plan.compressed = facts.bounds_known && plan.bounds.compressible(compression);
  plan.tuple_bytes = plan.compressed ? 8 : 16;
  return plan;
}

// Collective: a timed run (JoinRun) with body(format, run) in the plan's
// format. The phases sort, distribute and end are listed even when one
// takes no time.
template <class Body>
JoinResult timed_sorted_run(const Cluster& cluster, const SortedFormatPlan& plan, const InjectedFault& fault,
                            const Relation& inner, const Relation& outer, Body body) {
  JoinRun run(cluster, inner, outer, fault);
  for (const char* phase : {"sort", "distribute", "end"}) run.add(phase, 0.0);
  if (plan.compressed) {
    body(OffsetCompressedFormat{plan.bounds.min_key, plan.bounds.rid_bits()}, run);
  } else {
    body(WideTupleFormat{}, run);
  }
  return run.finish();
}

}  // namespace hpcdb
