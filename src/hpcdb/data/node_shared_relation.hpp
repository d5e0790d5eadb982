#pragma once
// Relation fragments in node-shared memory: every rank of a node can read
// the fragments of its co-located ranks, so operators can share the work on
// a node's data between its ranks instead of each rank scanning only its own.
#include <cstdint>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective over the node. A fragment of `count` tuples (contents
// unspecified, pages already mapped) in node-shared memory, with
// node_fragments filled in for every rank of the node. Its owner fills it;
// peers may read it only after a later synchronization of the node.
Relation node_shared_relation(const Cluster& cluster, std::size_t count, std::uint64_t global_size);

// Collective over the node. A copy of `fragment` in node-shared memory;
// returns once every rank of the node has copied its fragment.
Relation share_on_node(const Cluster& cluster, const Relation& fragment);

}  // namespace hpcdb
