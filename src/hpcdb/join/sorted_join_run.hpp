#pragma once
// What the joins of sorted fragments (cyclo, broadcast) share around their
// phases: the tuple format all ranks agree on, and one timed run in it.
#include <mpi.h>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/core/injected_failure.hpp"
#include "hpcdb/join/join_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/sorted_format_plan.hpp"
#include "hpcdb/join/sorted_join_phases.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective: a timed run (JoinRun) with body(format, run) in the plan's
// format. The phases sort, distribute and end are listed even when one
// takes no time.
template <class Body>
JoinResult timed_sorted_run(const Cluster& cluster, const SortedFormatPlan& plan, const InjectedFailure& failure,
                            const Relation& inner, const Relation& outer, Body body) {
  JoinRun run(cluster, inner, outer, failure);
  for (const std::string& phase : sorted_join_phase::all()) run.add(phase, 0.0);
  plan.with_format([&](const auto& format) { body(format, run); });
  return run.finish();
}

}  // namespace hpcdb
