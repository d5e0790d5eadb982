#include "hpcdb/join/radix/radix_plan.hpp"

#include <algorithm>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/join/radix/input_chunks.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/kernels/local_radix_partitioner.hpp"

namespace hpcdb {

namespace {

RadixBits bits_for(const JoinFacts& facts, const RadixJoinConfig& config, unsigned tuple_bytes) {
  return choose_radix_bits(facts.inner_tuples, facts.ranks, config.threads, tuple_bytes, facts.cpu, config.network_bits,
                           config.local_bits);
}
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

RadixPlan plan_radix_join(const JoinFacts& facts, const RadixJoinConfig& config) {
  validate(config);
  RadixPlan plan;
  plan.config = config;
  // A schedule orders whole partitions of each rank's own data: no help between ranks.
  if (config.scheduled) plan.config.share_node_work = false;
  plan.share_node_work = plan.config.share_node_work && facts.ranks_per_node > 1;

  // The tuple format: 8-byte values when the keys, less the network bits
  // chosen for them, fit beside the rids.
  if (facts.bounds_known) {
    plan.key_bits = bit_width_of(facts.bounds.key_or);
    plan.rid_bits = facts.bounds.rid_bits();
  }
  plan.bits = bits_for(facts, config, 8);
  plan.compressed = facts.bounds_known && config.compression == Compression::automatic &&
                    compressible(plan.key_bits, plan.rid_bits, plan.bits.network);
  plan.tuple_bytes = plan.compressed ? 8 : 16;
  if (!plan.compressed) plan.bits = bits_for(facts, config, 16);
  if (plan.bits.network > 24) throw UsageError("--network-bits must be at most 24");
  if (plan.bits.network + plan.bits.local > 40) throw UsageError("--network-bits plus --local-bits must be at most 40");
  plan.partitions = std::size_t{1} << plan.bits.network;
  plan.local_passes = split_radix_bits(plan.bits.local, kMaxSinglePassBits);
  if (!plan.local_passes.empty() && plan.bits.network + plan.local_passes.front() <= kMaxPrecountedBits) {
    plan.precounted_local_bits = plan.local_passes.front();
  }
  plan.build_budget = cache_resident_build_tuples(plan.tuple_bytes, facts.cpu);

  plan.input_chunks = InputChunks::chunks_for(config.input_chunks, std::max(facts.inner_tuples, facts.outer_tuples),
                                              facts.ranks, config.threads, plan.partitions);
  plan.window_capacity = ReceiveWindows::capacity_for(facts.inner_tuples, facts.outer_tuples, facts.ranks, plan.tuple_bytes);
  if (config.scheduled) {
    plan.writes = WindowWrites::elsewhere;
    plan.staging_bytes = (facts.largest_inner_fragment + facts.largest_outer_fragment) * plan.tuple_bytes;
  } else {
    plan.writes = ReceiveWindows::writes_for(config.force_put);
    if (config.force_put || facts.nodes > 1) {
      plan.send_buffer_bytes = static_cast<std::size_t>(config.threads) * plan.partitions * config.buffers_per_partition *
                               config.buffer_bytes;
    }
  }
  return plan;
}

MemoryEstimate RadixPlan::memory() const {
  // Per network partition: each worker's write-combining line, histograms and
  // write cursors, and the rank's partition plan (bases, sizes, owners).
  // Measured: about 100 bytes per rank and 220 per worker thread and
  // partition, which rules the memory from 2^20 partitions on (5 GiB at 2^24
  // for 1 rank and thread); rounded up.
  constexpr std::uint64_t kPlanBytesPerPartition = 128;
  constexpr std::uint64_t kWorkerBytesPerPartition = 256;
  MemoryEstimate m;
  m.add("receive windows", window_capacity, true);
  m.add("partition plan and workers' state", partitions * (kPlanBytesPerPartition + kWorkerBytesPerPartition * config.threads));
  m.add("chunk histograms", InputChunks::bytes_for(input_chunks, partitions), true);
  if (send_buffer_bytes > 0) m.add("send buffers", send_buffer_bytes);
  if (staging_bytes > 0) m.add("staging", staging_bytes);
  if (precounted_local_bits > 0) {
    // Per worker: the counting kernel's 32-bit counters, one chunk's bins,
    // the totals of both relations; per rank: their sum and its layout per
    // partition.
    const std::uint64_t bin_bytes = (std::uint64_t{partitions} << precounted_local_bits) * sizeof(std::uint64_t);
    m.add("first local digit counts", bin_bytes * (4 * std::uint64_t{config.threads} + 4));
  }
  return m;
}

}  // namespace hpcdb
