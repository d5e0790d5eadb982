#pragma once
// A relation as one rank sees it: its own fragment plus the global facts.
#include <cstdint>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct Relation {
  AlignedArray<Tuple> tuples;     // this rank's fragment
  std::uint64_t global_size = 0;  // tuples over all ranks
};

}  // namespace hpcdb
