#pragma once
// How tuples are stored once the network partitioning pass has run.
//
// Radix partitioning on the low `network_bits` of the key makes those bits
// implicit (the partition encodes them), so a tuple can be stored as
//   value = (key >> network_bits) << rid_bits | rid
// in 8 bytes whenever (key bits - network_bits) + rid_bits <= 64.
// Otherwise tuples stay 16 bytes wide. Both formats expose the same view:
// residual_key() = key >> network_bits, and rid().
#include <cstdint>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct CompressedFormat {
  using Stored = std::uint64_t;
  unsigned network_bits = 0;
  unsigned rid_bits = 0;  // < 64

  Stored encode(const Tuple& t) const { return ((t.key >> network_bits) << rid_bits) | t.rid; }
  std::uint64_t residual_key(Stored v) const { return v >> rid_bits; }
  std::uint64_t rid(Stored v) const { return v & low_mask(rid_bits); }
  bool same_key(Stored a, Stored b) const { return (a >> rid_bits) == (b >> rid_bits); }
};

struct WideFormat {
  using Stored = Tuple;
  unsigned network_bits = 0;

  Stored encode(const Tuple& t) const { return t; }
  std::uint64_t residual_key(const Stored& v) const { return network_bits >= 64 ? 0 : v.key >> network_bits; }
  std::uint64_t rid(const Stored& v) const { return v.rid; }
  bool same_key(const Stored& a, const Stored& b) const { return a.key == b.key; }
};

// Whether tuples whose keys and rids use at most `key_bits` and `rid_bits`
// bits fit 8 bytes after dropping `network_bits` key bits.
constexpr bool compressible(unsigned key_bits, unsigned rid_bits, unsigned network_bits) {
  const unsigned residual = key_bits > network_bits ? key_bits - network_bits : 0;
  return rid_bits < 64 && residual + rid_bits <= 64;
}

}  // namespace hpcdb
