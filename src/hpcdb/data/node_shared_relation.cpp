#include "hpcdb/data/node_shared_relation.hpp"

#include <algorithm>
#include <memory>

#include "hpcdb/net/node_shared_arena.hpp"

namespace hpcdb {

Relation node_shared_relation(const Cluster& cluster, std::size_t count, std::uint64_t global_size) {
  auto arena = std::make_shared<const NodeSharedArena>(cluster, count * sizeof(Tuple));
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(cluster.node_size()));
  const std::uint64_t mine = count;
  MPI_Allgather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, cluster.node());
  Relation relation;
  relation.global_size = global_size;
  for (int i = 0; i < cluster.node_size(); ++i) {
    relation.node_fragments.emplace_back(reinterpret_cast<const Tuple*>(arena->segment(i)),
                                         counts[static_cast<std::size_t>(i)]);
  }
  auto* own = reinterpret_cast<Tuple*>(arena->segment(cluster.node_rank()));
  relation.tuples = AlignedArray<Tuple>(own, count, std::move(arena));
  return relation;
}

Relation share_on_node(const Cluster& cluster, const Relation& fragment) {
  Relation shared = node_shared_relation(cluster, fragment.tuples.size(), fragment.global_size);
  std::copy(fragment.tuples.begin(), fragment.tuples.end(), shared.tuples.data());
  MPI_Barrier(cluster.node());  // every fragment is complete before any peer reads it
  return shared;
}

}  // namespace hpcdb
