#pragma once
// What the joins of sorted fragments (cyclo, broadcast) share around their
// phases: the tuple format all ranks agree on, and one timed run in it.
#include <mpi.h>

#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/join_config.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/key_bounds.hpp"
#include "hpcdb/join/sortmerge/sort_formats.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct SortedFormatPlan {
  KeyBounds bounds;
  bool compressed = false;  // 8-byte (key - min key) << rid bits | rid
  unsigned tuple_bytes = 16;
};

// Collective: agreed by every rank from the bounds of both relations.
inline SortedFormatPlan plan_sorted_format(const Cluster& cluster, Compression compression, const Relation& inner,
                                           const Relation& outer) {
  SortedFormatPlan plan;
  plan.bounds = agreed_key_bounds(inner, outer, cluster.world());
  plan.compressed = plan.bounds.compressible(compression);
  plan.tuple_bytes = plan.compressed ? 8 : 16;
  return plan;
}

// Collective: a barrier, body(format, result, clock) in the plan's format,
// then the job's summary of the run. The phases sort, distribute and end
// are listed even when one takes no time.
template <class Body>
JoinResult timed_sorted_run(const Cluster& cluster, const SortedFormatPlan& plan, const Relation& inner,
                            const Relation& outer, Body body) {
  JoinResult result;
  result.inner_tuples = inner.global_size;
  result.outer_tuples = outer.global_size;
  PhaseClock clock;
  for (const char* phase : {"sort", "distribute", "end"}) clock.add(phase, 0.0);
  MPI_Barrier(cluster.world());
  const double start = MPI_Wtime();
  if (plan.compressed) {
    body(OffsetCompressedFormat{plan.bounds.min_key, plan.bounds.rid_bits()}, result, clock);
  } else {
    body(WideTupleFormat{}, result, clock);
  }
  clock.stop();
  summarize_over_ranks(cluster, clock, MPI_Wtime() - start, result);
  return result;
}

}  // namespace hpcdb
