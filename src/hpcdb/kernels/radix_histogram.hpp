#pragma once
// Counting pass of radix partitioning: tuples per partition, plus the bits
// that keys and rids actually use (which decides whether tuples compress).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

struct KeyRidBits {
  std::uint64_t key_or = 0;  // bitwise OR of all keys
  std::uint64_t rid_or = 0;  // bitwise OR of all rids
};

// Adds to counts[key & mask] for every tuple; counts has mask + 1 entries.
//
// Four tuples at a time go to four separate count arrays, summed at the
// end: consecutive increments then never touch the same counter, so the
// CPU need not order each load after the previous, not yet executed store
// (twice the rate on Zen, 560-620 against 270-280 M tuples/s at 2^11).
// Eight tuples are read before any of their counters is incremented: a
// tuple load that follows a counter increment in program order can be
// predicted to depend on it (both are 64-bit words the compiler cannot tell
// apart), and once the CPU has learned that, every load waits for the
// increment before it (185-190 against 670-790 M tuples/s at 2^10-2^11 in
// hpcdb_kernels_bench, which hit that case every time).
// Eight tuples' slots (key & mask), read before any counter is written;
// their keys and rids ORed into `seen`.
inline constexpr std::size_t kHistogramBatch = 8;
inline void read_histogram_batch(const Tuple* tuples, std::uint64_t mask, std::uint64_t* slot, KeyRidBits& seen) {
  for (std::size_t b = 0; b < kHistogramBatch; ++b) {
    const std::uint64_t key = tuples[b].key;
    seen.key_or |= key;
    seen.rid_or |= tuples[b].rid;
    slot[b] = key & mask;
  }
}

inline KeyRidBits radix_histogram(const Tuple* tuples, std::size_t n, std::uint64_t mask, std::uint64_t* counts) {
  constexpr std::size_t kWays = 4;
  static_assert(kHistogramBatch % kWays == 0);
  const std::size_t partitions = mask + 1;
  std::vector<std::uint64_t> way_counts(kWays * partitions, 0);
  std::uint64_t* way[kWays];
  for (std::size_t w = 0; w < kWays; ++w) way[w] = way_counts.data() + w * partitions;
  KeyRidBits seen;
  std::size_t i = 0;
  for (; i + kHistogramBatch <= n; i += kHistogramBatch) {
    std::uint64_t slot[kHistogramBatch];
    read_histogram_batch(tuples + i, mask, slot, seen);
    for (std::size_t b = 0; b < kHistogramBatch; ++b) ++way[b % kWays][slot[b]];
  }
  for (; i < n; ++i) {
    seen.key_or |= tuples[i].key;
    seen.rid_or |= tuples[i].rid;
    ++way[0][tuples[i].key & mask];
  }
  for (std::size_t p = 0; p < partitions; ++p) {
    std::uint64_t sum = 0;
    for (std::size_t w = 0; w < kWays; ++w) sum += way[w][p];
    counts[p] += sum;
  }
  return seen;
}

// The same for fan-outs whose four count sets would not fit the L1 cache
// (network and local digits counted together, 2^12 to 2^16 bins): one set of
// 32-bit counters, in L2, where consecutive tuples seldom share a counter;
// eight keys still read before any counter is written. `scratch` holds the
// 32-bit counters between calls.
inline KeyRidBits radix_histogram_wide(const Tuple* tuples, std::size_t n, std::uint64_t mask, std::uint64_t* counts,
                                       std::vector<std::uint32_t>& scratch) {
  const std::size_t bins = mask + 1;
  scratch.resize(bins);
  std::uint32_t* count = scratch.data();
  KeyRidBits seen;
  std::size_t i = 0;
  // 32-bit counters: a block of at most 2^32 - 1 tuples at a time.
  while (i < n) {
    std::fill(scratch.begin(), scratch.end(), 0u);
    const std::size_t block_end = i + std::min<std::size_t>(n - i, 0xFFFFFFF0u);
    for (; i + kHistogramBatch <= block_end; i += kHistogramBatch) {
      std::uint64_t slot[kHistogramBatch];
      read_histogram_batch(tuples + i, mask, slot, seen);
      for (std::size_t b = 0; b < kHistogramBatch; ++b) ++count[slot[b]];
    }
    for (; i < block_end; ++i) {
      seen.key_or |= tuples[i].key;
      seen.rid_or |= tuples[i].rid;
      ++count[tuples[i].key & mask];
    }
    for (std::size_t p = 0; p < bins; ++p) counts[p] += count[p];
  }
  return seen;
}

}  // namespace hpcdb
