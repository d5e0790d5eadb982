#pragma once
// The radix join's plan: every decision the ranks must share, made once
// from agreed facts (join_facts.hpp) and the options, and used everywhere
// after: by the operator, its memory estimate, the model and the report.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/core/cpu_info.hpp"
#include "hpcdb/join/radix/radix_config.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_memory.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/kernels/tuple_format.hpp"

namespace hpcdb {

struct RadixBits {
  unsigned network = 0;
  unsigned local = 0;  // 0 = no local pass
};

// Most bits one radix pass takes: beyond them the write-combining lines and
// the TLB no longer hold all partitions. The network pass and every local
// pass keep to it.
inline constexpr unsigned kMaxSinglePassBits = 11;

// Most bits (network and first local pass together) the histogram phase
// counts: 2^16 counters per relation, exchanged among all ranks.
inline constexpr unsigned kMaxPrecountedBits = 16;

struct RadixPlan {
  RadixJoinConfig config;
  RadixBits bits;
  // The local partitioning: bits per pass (lowest key bits first), as many
  // passes of at most kMaxSinglePassBits as bits.local takes; empty: none.
  std::vector<unsigned> local_passes;
  // Bits of the first local pass that the histogram phase counts along with
  // the network bits, so that the pass need not read its input once more
  // before scattering it (0: every local pass counts its own input).
  unsigned precounted_local_bits = 0;
  std::size_t partitions = 1;  // of the network pass, 2^bits.network
  // Tuples travel and are joined as 8-byte values when the keys (less the
  // network bits) and rids fit, else as 16-byte tuples.
  bool compressed = false;
  unsigned tuple_bytes = 16;
  unsigned key_bits = 64;  // bits the keys use, over every rank (64 when unknown)
  unsigned rid_bits = 64;
  std::uint64_t build_budget = 0;  // most R tuples of one cache-resident hash table
  unsigned input_chunks = 1;       // per rank fragment and relation
  bool share_node_work = true;     // co-located ranks share chunks and partitions
  // The receive windows and how the network pass writes into them.
  std::size_t window_capacity = 0;  // bytes per rank, with slack for skew
  WindowWrites writes = WindowWrites::stores_and_puts;
  std::size_t send_buffer_bytes = 0;  // per rank, all threads (streaming puts only)
  std::size_t staging_bytes = 0;      // per rank (scheduled exchange only)

  // Calls f(format) with the plan's tuple format (CompressedFormat or WideFormat).
  template <class F>
  decltype(auto) with_format(F&& f) const {
    if (compressed) return f(CompressedFormat{bits.network, rid_bits});
    return f(WideFormat{bits.network});
  }
  // What the plan sets aside per rank besides the input.
  MemoryEstimate memory() const;
};

// The plan for these facts; validates the options first (UsageError).
RadixPlan plan_radix_join(const JoinFacts& facts, const RadixJoinConfig& config);

// Chooses bits so that every worker gets several partitions and the final
// partitions (with their hash tables) fit the per-core L2 cache. Requested
// non-zero values are kept.
RadixBits choose_radix_bits(std::uint64_t inner_tuples, int ranks, unsigned threads, unsigned tuple_bytes,
                            const CpuInfo& cpu, unsigned requested_network, unsigned requested_local);

// Most tuples of R a cache-resident build partition should hold.
std::uint64_t cache_resident_build_tuples(unsigned tuple_bytes, const CpuInfo& cpu);

}  // namespace hpcdb
