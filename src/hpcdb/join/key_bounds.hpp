#pragma once
// The key and rid ranges of both relations over every rank, which decide
// whether tuples travel and sort as 8-byte values ((key - min key) << rid
// bits | rid) or as 16-byte tuples. Every rank gets the same bounds, so the
// format is one decision the whole job agrees on.
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <span>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/join/join_config.hpp"

namespace hpcdb {

struct KeyBounds {
  std::uint64_t min_key = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_key = 0;
  std::uint64_t key_or = 0;
  std::uint64_t rid_or = 0;

  bool empty() const { return max_key < min_key; }
  unsigned key_offset_bits() const { return empty() ? 0 : bit_width_of(max_key - min_key); }
  unsigned rid_bits() const { return bit_width_of(rid_or); }
  bool compressible(Compression compression) const {
    return compression == Compression::automatic && rid_bits() < 64 && key_offset_bits() + rid_bits() <= 64;
  }
  void widen(std::span<const Tuple> tuples);
  void widen(const KeyBounds& other);
};

// Collective: the bounds of every rank's fragments of both relations.
KeyBounds agreed_key_bounds(const Relation& inner, const Relation& outer, MPI_Comm comm);

// Collective: the bounds over every rank, from this rank's.
KeyBounds agree_on(KeyBounds local, MPI_Comm comm);

}  // namespace hpcdb
