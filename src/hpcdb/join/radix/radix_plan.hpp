#pragma once
// How many radix bits each partitioning pass uses.
#include <cstdint>

#include "hpcdb/core/cpu_info.hpp"

namespace hpcdb {

struct RadixBits {
  unsigned network = 0;
  unsigned local = 0;  // 0 = no local pass
};

// Chooses bits so that every worker gets several partitions and the final
// partitions (with their hash tables) fit the per-core L2 cache. Requested
// non-zero values are kept.
RadixBits choose_radix_bits(std::uint64_t inner_tuples, int ranks, unsigned threads, unsigned tuple_bytes,
                            const CpuInfo& cpu, unsigned requested_network, unsigned requested_local);

// Most tuples of R a cache-resident build partition should hold.
std::uint64_t cache_resident_build_tuples(unsigned tuple_bytes, const CpuInfo& cpu);

}  // namespace hpcdb
