#pragma once
// Sorting 64-bit values by a narrow key field, through 32-bit sort keys.
//
// A value's key is v >> shift (the low `shift` bits are payload, such as a
// compressed tuple's rid). When the keys of a run span few values, as they
// do within one key sub-range of the sort-merge join, each value is replaced
// by the 32-bit sort key
//     (key - key floor) << index_bits | index,
// where the floor is the smallest key the run can hold (the caller knows it
// from the range the run belongs to). These are sorted, and the values are
// gathered back in that order. The AVX2 path first splits the run into
// buckets by the top bits of the key field and sorts groups of about 64
// sort keys with an in-register network (on Zen, 16384-value runs of
// compressed tuples sort at 104-128 M/s per core this way, against 85-92
// through one network sort of the whole run and 50-57 as 64-bit values).
// The output is therefore sorted by key, and equal keys keep their input
// order; it is not sorted by payload within a key. The index makes every sort key unique, so both paths (AVX2
// and scalar) give the same output.
#include <cstddef>
#include <cstdint>

#include "hpcdb/kernels/sorted_runs.hpp"

namespace hpcdb {

// Whether n values whose keys, less the smallest possible key, fit
// `key_bits` bits can be sorted through 32-bit sort keys.
bool fits_key_field_sort(unsigned key_bits, std::size_t n);

// Sorts in[0, n) by key (v >> shift, shift < 64) into out[0, n), which must
// not overlap `in`. Every key should lie in [key_floor, key_floor +
// 2^key_bits); `work` holds key_field_sort_work_words(n) 32-bit words.
// Returns false, having written
// nothing to out, when the keys do not fit 32-bit sort keys: when
// fits_key_field_sort(key_bits, n) is false, or some key lies outside that
// range (checked on the way).
bool sort_by_key_field(const std::uint64_t* in, std::size_t n, unsigned shift, std::uint64_t key_floor,
                       unsigned key_bits, std::uint64_t* out, std::uint32_t* work, SortPath path = default_sort_path());

// The 32-bit words of work space sort_by_key_field needs for n values.
std::size_t key_field_sort_work_words(std::size_t n);

// Sorts a[0, n) ascending, using b[0, n) as work space; returns whichever of
// the two holds the result. The AVX2 key-field sort applies it to its
// groups, padded to multiples of 64, which need no scalar tail.
std::uint32_t* sort_u32(std::uint32_t* a, std::uint32_t* b, std::size_t n, SortPath path = default_sort_path());

}  // namespace hpcdb
