#pragma once
// How the sort-merge join stores tuples while sorting: 8 bytes as
// (key - min_key) << rid_bits | rid when that fits, so that sorting the plain
// 64-bit values sorts by key (SIMD path); else the 16-byte tuple, sorted by
// key with the scalar path.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct OffsetCompressedFormat {
  using Stored = std::uint64_t;
  std::uint64_t min_key = 0;
  unsigned rid_bits = 0;

  Stored encode(const Tuple& t) const { return ((t.key - min_key) << rid_bits) | t.rid; }
  std::uint64_t key(Stored v) const { return v >> rid_bits; }
  std::uint64_t rid(Stored v) const { return v & low_mask(rid_bits); }
  static bool less(Stored a, Stored b) { return a < b; }

  // in is overwritten; out may equal in.
  static void sort(Stored* in, std::size_t n, Stored* out, Stored* scratch) { sort_run(in, n, out, scratch); }
  static void merge(const Stored* a, std::size_t na, const Stored* b, std::size_t nb, Stored* out) {
    merge_two(a, na, b, nb, out);
  }
};

struct WideTupleFormat {
  using Stored = Tuple;

  Stored encode(const Tuple& t) const { return t; }
  std::uint64_t key(const Stored& t) const { return t.key; }
  std::uint64_t rid(const Stored& t) const { return t.rid; }
  static bool less(const Stored& a, const Stored& b) { return a.key < b.key; }

  static void sort(Stored* in, std::size_t n, Stored* out, Stored* /*scratch*/) {
    std::sort(in, in + n, less);
    if (out != in) std::memcpy(out, in, n * sizeof(Stored));
  }
  static void merge(const Stored* a, std::size_t na, const Stored* b, std::size_t nb, Stored* out) {
    std::merge(a, a + na, b, b + nb, out, less);
  }
};

}  // namespace hpcdb
