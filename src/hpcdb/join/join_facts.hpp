#pragma once
// What a join's plan is decided from, the same on every rank: the job's
// shape, the relations' global sizes, their key and rid bounds, and the
// processor's facts reduced over the ranks (the smallest caches, AVX2 only
// where every rank has it). A plan is a function of these facts and the
// join's options alone, so no rank can decide differently from a probe of
// its own machine.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hpcdb/core/cpu_info.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/key_bounds.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct JoinFacts {
  int ranks = 1;
  int nodes = 1;
  int ranks_per_node = 1;  // on the most crowded node
  std::uint64_t inner_tuples = 0;
  std::uint64_t outer_tuples = 0;
  std::uint64_t largest_inner_fragment = 0;  // tuples on one rank
  std::uint64_t largest_outer_fragment = 0;
  std::vector<std::uint64_t> outer_fragments;  // every rank's S fragment, tuples
  // Keys and rids of both relations over every rank; unknown before the
  // data exists (memory estimates), when plans assume 16-byte tuples.
  bool bounds_known = false;
  KeyBounds bounds;
  CpuInfo cpu;  // reduced over the ranks
};

// Collective: every rank's facts reduced over the ranks of `comm` (the
// smallest caches and core count, AVX2 only when every rank has it).
CpuInfo agree_on_cpu(const CpuInfo& mine, MPI_Comm comm);
// Collective: this rank's detect_cpu(), agreed.
inline CpuInfo agreed_cpu(MPI_Comm comm) { return agree_on_cpu(detect_cpu(), comm); }

// Collective: the facts of a join of these relations on this job.
JoinFacts agreed_join_facts(const Cluster& cluster, const Relation& inner, const Relation& outer);

// Collective: the facts of a join of relations of these global sizes, before
// they exist (fragments as the generator and readers cut them, bounds unknown).
JoinFacts estimated_join_facts(const Cluster& cluster, std::uint64_t inner_tuples, std::uint64_t outer_tuples);
// The same with the bounds of the densest data of these sizes (keys up to
// the larger size, rids up to the largest fragment): plans for it are the
// least a join of these sizes could need.
JoinFacts densest_join_facts(const Cluster& cluster, std::uint64_t inner_tuples, std::uint64_t outer_tuples);

}  // namespace hpcdb
