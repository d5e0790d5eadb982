#include "hpcdb/join/key_bounds.hpp"

#include <algorithm>

namespace hpcdb {

// Works on a local copy: with loads of tuples the compiler cannot rule out
// as aliases, a loop on the members keeps them in memory.
void KeyBounds::widen(std::span<const Tuple> tuples) {
  KeyBounds b = *this;
  for (const Tuple& tuple : tuples) {
    b.min_key = std::min(b.min_key, tuple.key);
    b.max_key = std::max(b.max_key, tuple.key);
    b.key_or |= tuple.key;
    b.rid_or |= tuple.rid;
  }
  *this = b;
}

void KeyBounds::widen(const KeyBounds& other) {
  min_key = std::min(min_key, other.min_key);
  max_key = std::max(max_key, other.max_key);
  key_or |= other.key_or;
  rid_or |= other.rid_or;
}

KeyBounds agree_on(KeyBounds local, MPI_Comm comm) {
  std::uint64_t mins[1] = {local.min_key};
  std::uint64_t maxes_and_ors[3] = {local.max_key, local.key_or, local.rid_or};
  MPI_Allreduce(MPI_IN_PLACE, mins, 1, MPI_UINT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, maxes_and_ors, 1, MPI_UINT64_T, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, maxes_and_ors + 1, 2, MPI_UINT64_T, MPI_BOR, comm);
  return {mins[0], maxes_and_ors[0], maxes_and_ors[1], maxes_and_ors[2]};
}

KeyBounds agreed_key_bounds(const Relation& inner, const Relation& outer, MPI_Comm comm) {
  KeyBounds local;
  local.widen(std::span<const Tuple>(inner.tuples.data(), inner.tuples.size()));
  local.widen(std::span<const Tuple>(outer.tuples.data(), outer.tuples.size()));
  return agree_on(local, comm);
}

}  // namespace hpcdb
