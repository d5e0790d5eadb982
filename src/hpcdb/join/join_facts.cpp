#include "hpcdb/join/join_facts.hpp"

#include <algorithm>

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

JoinFacts job_facts(const Cluster& cluster) {
  JoinFacts facts;
  facts.ranks = cluster.size();
  facts.nodes = cluster.node_count();
  facts.ranks_per_node = allreduce(cluster.node_size(), MPI_MAX, cluster.world());
  facts.cpu = agreed_cpu(cluster.world());
  return facts;
}

}  // namespace

CpuInfo agree_on_cpu(const CpuInfo& mine, MPI_Comm comm) {
  std::uint64_t smallest[4] = {mine.l1d_bytes, mine.l2_bytes, mine.l3_bytes, mine.cores};
  int avx2 = mine.avx2 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, smallest, 4, MPI_UINT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &avx2, 1, MPI_INT, MPI_MIN, comm);
  CpuInfo cpu;
  cpu.l1d_bytes = static_cast<std::size_t>(smallest[0]);
  cpu.l2_bytes = static_cast<std::size_t>(smallest[1]);
  cpu.l3_bytes = static_cast<std::size_t>(smallest[2]);
  cpu.cores = static_cast<unsigned>(smallest[3]);
  cpu.avx2 = avx2 != 0;
  return cpu;
}

JoinFacts agreed_join_facts(const Cluster& cluster, const Relation& inner, const Relation& outer) {
  JoinFacts facts = job_facts(cluster);
  facts.inner_tuples = inner.global_size;
  facts.outer_tuples = outer.global_size;
  std::uint64_t largest[2] = {inner.tuples.size(), outer.tuples.size()};
  MPI_Allreduce(MPI_IN_PLACE, largest, 2, MPI_UINT64_T, MPI_MAX, cluster.world());
  facts.largest_inner_fragment = largest[0];
  facts.largest_outer_fragment = largest[1];
  facts.outer_fragments = allgather<std::uint64_t>(outer.tuples.size(), cluster.world());
  facts.bounds = agreed_key_bounds(inner, outer, cluster.world());
  facts.bounds_known = true;
  return facts;
}

JoinFacts densest_join_facts(const Cluster& cluster, std::uint64_t inner_tuples, std::uint64_t outer_tuples) {
  JoinFacts facts = estimated_join_facts(cluster, inner_tuples, outer_tuples);
  facts.bounds_known = true;
  facts.bounds.min_key = 0;
  facts.bounds.max_key = std::max(inner_tuples, outer_tuples);
  facts.bounds.key_or = facts.bounds.max_key;
  facts.bounds.rid_or = std::max(facts.largest_inner_fragment, facts.largest_outer_fragment);
  return facts;
}

JoinFacts estimated_join_facts(const Cluster& cluster, std::uint64_t inner_tuples, std::uint64_t outer_tuples) {
  JoinFacts facts = job_facts(cluster);
  const auto ranks = static_cast<std::uint64_t>(cluster.size());
  facts.inner_tuples = inner_tuples;
  facts.outer_tuples = outer_tuples;
  facts.largest_inner_fragment = (inner_tuples + ranks - 1) / ranks;
  facts.largest_outer_fragment = (outer_tuples + ranks - 1) / ranks;
  for (std::size_t r = 0; r < ranks; ++r) {
    facts.outer_fragments.push_back(split_point(outer_tuples, ranks, r + 1) - split_point(outer_tuples, ranks, r));
  }
  return facts;
}

}  // namespace hpcdb
