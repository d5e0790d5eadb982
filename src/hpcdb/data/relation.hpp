#pragma once
// A relation as one rank sees it: its own fragment plus the global facts.
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct Relation {
  AlignedArray<Tuple> tuples;     // this rank's fragment
  std::uint64_t global_size = 0;  // tuples over all ranks
  // When the fragments of all ranks on this node live in node-shared memory
  // (see node_shared_relation.hpp): each node rank's fragment, readable from
  // this rank, indexed by node rank. Empty when fragments are private.
  std::vector<std::span<const Tuple>> node_fragments;
};

}  // namespace hpcdb
