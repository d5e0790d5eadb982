#pragma once
// How the sort-merge join stores tuples while sorting: 8 bytes as
// (key - min_key) << rid_bits | rid when that fits, so that sorting the plain
// 64-bit values sorts by key (SIMD path); else the 16-byte tuple, sorted by
// key with the scalar path.
//
// Runs come out sorted by key; ties need no particular order, as merging
// and matching look at keys only (merge networks keep key order when their
// inputs are in key order, by the 0-1 principle at key boundaries).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/kernels/key_field_sort.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"
#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

// The keys a run can hold: [floor, floor + 2^bits).
struct KeyField {
  std::uint64_t floor = 0;
  unsigned bits = 64;
};

// One worker's work space for sorting runs of up to `run_length` tuples.
template <class Stored>
struct RunSortSpace {
  explicit RunSortSpace(std::size_t run_length) : values(run_length), keys(key_field_sort_work_words(run_length)) {}
  std::vector<Stored> values;
  std::vector<std::uint32_t> keys;
};

struct OffsetCompressedFormat {
  using Stored = std::uint64_t;
  std::uint64_t min_key = 0;
  unsigned rid_bits = 0;

  Stored encode(const Tuple& t) const { return ((t.key - min_key) << rid_bits) | t.rid; }
  std::uint64_t key(Stored v) const { return v >> rid_bits; }
  std::uint64_t rid(Stored v) const { return v & low_mask(rid_bits); }
  static bool less(Stored a, Stored b) { return a < b; }

  // Sorts in[0, n) by key into out (which may equal in); in is overwritten.
  // A run whose keys lie in [keys.floor, keys.floor + 2^keys.bits), with few
  // enough bits (as within a key sub-range), is sorted through 32-bit sort
  // keys, so equal keys keep their input order; other runs are sorted as
  // plain 64-bit values. Only with rid_bits <= 62: the merge picks its SIMD
  // compare from the top two bits of each run's last value, which must then
  // belong to the key. Returns whether the run went through 32-bit keys.
  bool sort(Stored* in, std::size_t n, Stored* out, RunSortSpace<Stored>& space, KeyField keys) const {
    if (rid_bits <= 62 && keys.floor >= min_key && fits_key_field_sort(keys.bits, n)) {
      // The gather reads the tuples while it writes out: sorting in place
      // reads a copy.
      const Stored* source = in;
      if (out == in) source = static_cast<Stored*>(std::memcpy(space.values.data(), in, n * sizeof(Stored)));
      if (sort_by_key_field(source, n, rid_bits, keys.floor - min_key, keys.bits, out, space.keys.data())) return true;
    }
    sort_run(in, n, out, space.values.data());
    return false;
  }
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

  bool sort(Stored* in, std::size_t n, Stored* out, RunSortSpace<Stored>& /*space*/, KeyField /*keys*/) const {
    std::sort(in, in + n, less);
    if (out != in) std::memcpy(out, in, n * sizeof(Stored));
    return false;
  }
  static void merge(const Stored* a, std::size_t na, const Stored* b, std::size_t nb, Stored* out) {
    std::merge(a, a + na, b, b + nb, out, less);
  }
};

}  // namespace hpcdb
