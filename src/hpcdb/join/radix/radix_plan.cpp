#include "hpcdb/join/radix/radix_plan.hpp"

#include <algorithm>

#include "hpcdb/core/bits.hpp"

namespace hpcdb {

namespace {
// Largest fan-out a single pass sustains at full speed: beyond it the
// write-combining lines and the TLB no longer hold all partitions.
constexpr unsigned kMaxSinglePassBits = 11;
}  // namespace

std::uint64_t cache_resident_build_tuples(unsigned tuple_bytes, const CpuInfo& cpu) {
  // Tuples plus about 8 bytes of table per tuple, in half of L2. (The table
  // really takes 12-20 bytes per tuple, with its heads at two buckets per
  // tuple, so a partition fills up to about two thirds of L2; one more radix
  // bit measured no faster to build and probe, and slower to partition.)
  return std::max<std::uint64_t>(1024, cpu.l2_bytes / 2 / (tuple_bytes + 8));
}

RadixBits choose_radix_bits(std::uint64_t inner_tuples, int ranks, unsigned threads, unsigned tuple_bytes,
                            const CpuInfo& cpu, unsigned requested_network, unsigned requested_local) {
  const unsigned workers_bits = ceil_log2(static_cast<std::uint64_t>(ranks) * threads);
  const unsigned min_network = std::max(workers_bits + 2, 4u);  // a few partitions per worker
  const std::uint64_t per_partition = cache_resident_build_tuples(tuple_bytes, cpu);
  const unsigned total = ceil_log2((inner_tuples + per_partition - 1) / per_partition);

  RadixBits bits;
  if (requested_network != 0) {
    bits.network = requested_network;
  } else if (std::max(total, min_network) <= kMaxSinglePassBits) {
    bits.network = std::max(total, min_network);
  } else {
    bits.network = std::max(min_network, 10u);
  }
  if (requested_local != 0) bits.local = requested_local;
  else bits.local = total > bits.network ? total - bits.network : 0;
  return bits;
}

}  // namespace hpcdb
