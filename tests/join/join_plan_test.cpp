// The joins' plans from given facts (no MPI): what each decides, what it sets
// aside, and the options each refuses.
#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/join_plan.hpp"

namespace hpcdb {
namespace {

JoinFacts facts_for(std::uint64_t inner, std::uint64_t outer, int ranks, int nodes, bool bounds_known) {
  JoinFacts f;
  f.ranks = ranks;
  f.nodes = nodes;
  f.ranks_per_node = (ranks + nodes - 1) / nodes;
  f.inner_tuples = inner;
  f.outer_tuples = outer;
  f.largest_inner_fragment = (inner + static_cast<std::uint64_t>(ranks) - 1) / static_cast<std::uint64_t>(ranks);
  f.largest_outer_fragment = (outer + static_cast<std::uint64_t>(ranks) - 1) / static_cast<std::uint64_t>(ranks);
  f.bounds_known = bounds_known;
  if (bounds_known) {
    f.bounds.min_key = 0;
    f.bounds.max_key = inner + outer - 1;
    f.bounds.key_or = (std::uint64_t{1} << 26) - 1;
    f.bounds.rid_or = (std::uint64_t{1} << 25) - 1;
  }
  f.cpu.l2_bytes = 512 * 1024;
  return f;
}

std::uint64_t bytes_of(const MemoryEstimate& m, const std::string& name) {
  for (const MemoryItem& item : m.items) {
    if (item.name == name) return item.bytes;
  }
  return 0;
}

TEST(RadixPlan, CompressedTuplesOnlyWhenTheBoundsAreKnownAndFit) {
  RadixJoinConfig config;
  const RadixPlan estimate = plan_radix_join(facts_for(32u << 20, 32u << 20, 2, 1, false), config);
  EXPECT_FALSE(estimate.compressed);
  EXPECT_EQ(estimate.tuple_bytes, 16u);
  const RadixPlan known = plan_radix_join(facts_for(32u << 20, 32u << 20, 2, 1, true), config);
  EXPECT_TRUE(known.compressed);
  EXPECT_EQ(known.tuple_bytes, 8u);
  EXPECT_EQ(known.partitions, std::size_t{1} << known.bits.network);
  EXPECT_EQ(known.build_budget, cache_resident_build_tuples(8, facts_for(1, 1, 1, 1, false).cpu));
  config.compression = Compression::off;
  EXPECT_EQ(plan_radix_join(facts_for(32u << 20, 32u << 20, 2, 1, true), config).tuple_bytes, 16u);
}

TEST(RadixPlan, TheHistogramPhaseCountsTheFirstLocalPassWhenItsBinsStaySmall) {
  RadixJoinConfig config;
  const RadixPlan in_cache = plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config);
  EXPECT_TRUE(in_cache.local_passes.empty());
  EXPECT_EQ(in_cache.precounted_local_bits, 0u);
  EXPECT_EQ(bytes_of(in_cache.memory(), "first local digit counts"), 0u);

  const RadixPlan large = plan_radix_join(facts_for(256u << 20, 256u << 20, 2, 1, true), config);
  ASSERT_FALSE(large.local_passes.empty());
  EXPECT_EQ(large.precounted_local_bits, large.local_passes.front());
  const std::uint64_t bins = std::uint64_t{large.partitions} << large.precounted_local_bits;
  EXPECT_EQ(bytes_of(large.memory(), "first local digit counts"), bins * 8 * (4 * config.threads + 4));

  config.network_bits = 10;
  config.local_bits = 6;  // 16 bits together: still counted
  EXPECT_EQ(plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config).precounted_local_bits, 6u);
  config.local_bits = 7;  // 17: each local pass counts its own input
  EXPECT_EQ(plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config).precounted_local_bits, 0u);
  config.network_bits = 4;
  config.local_bits = 14;  // two passes of 7: only the first one's digits
  const RadixPlan two_passes = plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config);
  EXPECT_EQ(two_passes.local_passes, (std::vector<unsigned>{7, 7}));
  EXPECT_EQ(two_passes.precounted_local_bits, 7u);
}

TEST(RadixPlan, SendBuffersAcrossNodesOrForcedPutsStagingWhenScheduled) {
  RadixJoinConfig config;
  const JoinFacts one_node = facts_for(1u << 20, 1u << 20, 2, 1, true);
  const RadixPlan local = plan_radix_join(one_node, config);
  EXPECT_EQ(local.send_buffer_bytes, 0u);
  EXPECT_EQ(local.writes, WindowWrites::stores_and_puts);
  EXPECT_EQ(bytes_of(local.memory(), "receive windows"), local.window_capacity);
  EXPECT_EQ(local.memory().node_shared(), local.window_capacity + bytes_of(local.memory(), "chunk histograms"));

  const RadixPlan spread = plan_radix_join(facts_for(1u << 20, 1u << 20, 4, 2, true), config);
  EXPECT_EQ(spread.send_buffer_bytes, spread.partitions * config.buffers_per_partition * config.buffer_bytes);
  config.force_put = true;
  EXPECT_EQ(plan_radix_join(one_node, config).writes, WindowWrites::puts_only);

  config.force_put = false;
  config.scheduled = true;
  const RadixPlan scheduled = plan_radix_join(one_node, config);
  EXPECT_EQ(scheduled.writes, WindowWrites::elsewhere);
  EXPECT_EQ(scheduled.send_buffer_bytes, 0u);
  EXPECT_EQ(scheduled.staging_bytes, (one_node.largest_inner_fragment + one_node.largest_outer_fragment) * scheduled.tuple_bytes);
  EXPECT_FALSE(scheduled.share_node_work);  // a schedule ships each rank's own data
}

TEST(RadixPlan, RequestedBitsAreKeptWithinTheirLimits) {
  RadixJoinConfig config;
  config.network_bits = 9;
  config.local_bits = 5;
  const RadixPlan plan = plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config);
  EXPECT_EQ(plan.bits.network, 9u);
  EXPECT_EQ(plan.bits.local, 5u);
  EXPECT_EQ(plan.local_passes, std::vector<unsigned>{5});
  config.local_bits = 14;  // beyond one pass's fan-out: two passes
  EXPECT_EQ(plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config).local_passes,
            (std::vector<unsigned>{7, 7}));
  config.network_bits = 24;
  config.local_bits = 20;
  EXPECT_THROW(plan_radix_join(facts_for(1u << 20, 1u << 20, 2, 1, true), config), UsageError);
}

TEST(JoinOptions, EachOperatorRefusesItsBadOptionsInOnePlace) {
  RadixJoinConfig radix;
  radix.threads = 0;
  EXPECT_THROW(validate(radix), UsageError);
  radix = {};
  radix.buffer_bytes = 100;
  EXPECT_THROW(validate(radix), UsageError);
  radix = {};
  radix.exchange.transport = ExchangeTransport::messages;  // without a schedule
  EXPECT_THROW(validate(radix), UsageError);
  SortMergeJoinConfig sort_merge;
  sort_merge.merge_fan_in = 1;
  EXPECT_THROW(validate(sort_merge), UsageError);
  EXPECT_THROW(plan_sort_merge_join(facts_for(100, 100, 1, 1, true), sort_merge), UsageError);
  CycloJoinConfig cyclo;
  cyclo.chunk_bytes = 8;
  EXPECT_THROW(validate(cyclo), UsageError);
  BroadcastJoinConfig broadcast;
  broadcast.udp.address = "not an address";
  EXPECT_THROW(validate(broadcast), UsageError);
  broadcast = {};
  broadcast.depth = 65;
  EXPECT_THROW(plan_broadcast_join(facts_for(100, 100, 1, 1, true), broadcast), UsageError);
  EXPECT_NO_THROW(validate(RadixJoinConfig{}));
  EXPECT_NO_THROW(validate(SortMergeJoinConfig{}));
  EXPECT_NO_THROW(validate(CycloJoinConfig{}));
  EXPECT_NO_THROW(validate(BroadcastJoinConfig{}));
}

TEST(JoinPlan, PhasesAreThoseOfTheReport) {
  JoinConfigs configs;
  EXPECT_EQ(phases_of(configs).front(), "histogram");
  configs.radix.scheduled = true;
  EXPECT_EQ(phases_of(configs)[3], "network_exchange");
  configs.algorithm = JoinAlgorithm::sort_merge;
  EXPECT_EQ(phases_of(configs).back(), "match");
  configs.algorithm = JoinAlgorithm::cyclo;
  EXPECT_EQ(phases_of(configs), (std::vector<std::string>{"sort", "distribute", "end"}));
  EXPECT_EQ(parse_join_algorithm("sort-merge"), JoinAlgorithm::sort_merge);
  EXPECT_THROW(parse_join_algorithm("nested-loop"), UsageError);
}

TEST(CycloAndBroadcastPlans, SizedForTheLargestFragments) {
  const JoinFacts facts = facts_for(4000, 9000, 3, 1, true);
  const CycloPlan cyclo = plan_cyclo_join(facts, CycloJoinConfig{});
  EXPECT_EQ(cyclo.format.tuple_bytes, 8u);
  EXPECT_EQ(cyclo.largest_outer_fragment, 3000u);
  EXPECT_EQ(bytes_of(cyclo.memory(), "ring buffers"), 2 * 3000u * 8);
  BroadcastJoinConfig config;
  config.transport = BroadcastTransport::udp;
  config.chunk_bytes = 64;
  const BroadcastPlan broadcast = plan_broadcast_join(facts, config);
  EXPECT_GE(broadcast.chunk_tuples, 4000u);  // at least a datagram's worth
}

}  // namespace
}  // namespace hpcdb
