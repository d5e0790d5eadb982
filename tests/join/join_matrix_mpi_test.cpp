// Both distributed joins against a serial reference, over one matrix of
// inputs (empty, tiny, duplicates, skew, ratios, selectivity, 64-bit keys,
// patterns) and configurations (shared-memory and put paths, threads,
// compression, and each algorithm's own knobs).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "hpcdb/data/workload_generator.hpp"
#include "hpcdb/join/broadcast/broadcast_join.hpp"
#include "hpcdb/join/cyclo/cyclo_join.hpp"
#include "hpcdb/join/radix/radix_join.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/join/sortmerge/key_ranges.hpp"
#include "hpcdb/join/sortmerge/sort_merge_join.hpp"
#include "join/join_test_support.hpp"

namespace hpcdb::testing {
namespace {

struct Workload {
  std::string name;
  GlobalInput (*make)();
};

GlobalInput generated(std::uint64_t inner, std::uint64_t outer, double zipf, double selectivity) {
  WorkloadSpec spec{inner, outer, zipf, selectivity, 7};
  GlobalInput in;
  in.inner.resize(inner);
  in.outer.resize(outer);
  generate_inner(spec, 0, inner, in.inner.data());
  generate_outer(spec, 0, outer, in.outer.data());
  return in;
}

GlobalInput random_keys(std::size_t inner, std::size_t outer, std::uint64_t key_range, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GlobalInput in;
  for (std::size_t i = 0; i < inner; ++i) in.inner.push_back({rng() % key_range, i});
  for (std::size_t i = 0; i < outer; ++i) in.outer.push_back({rng() % key_range, 1000000 + i});
  return in;
}

const Workload kWorkloads[] = {
    {"both_empty", [] { return GlobalInput{}; }},
    {"inner_empty", [] { return GlobalInput{{}, random_keys(0, 100, 50, 1).outer}; }},
    {"outer_empty", [] { return GlobalInput{random_keys(100, 0, 50, 2).inner, {}}; }},
    {"single_tuple", [] { return GlobalInput{{{7, 100}}, {{7, 200}}}; }},
    {"all_one_key",
     [] {
       GlobalInput in;
       for (std::uint64_t i = 0; i < 40; ++i) in.inner.push_back({5, i});
       for (std::uint64_t i = 0; i < 60; ++i) in.outer.push_back({5, 500 + i});
       return in;
     }},
    {"uniform_20k", [] { return generated(20000, 20000, 0.0, 1.0); }},
    {"zipf_1_2", [] { return generated(5000, 40000, 1.2, 1.0); }},
    {"ratio_1_8", [] { return generated(4000, 32000, 0.0, 1.0); }},
    {"selectivity_0_25", [] { return generated(10000, 10000, 0.0, 0.25); }},
    {"duplicates_both_sides", [] { return random_keys(3000, 3000, 50, 3); }},
    {"full_64_bit_keys",
     [] {
       std::mt19937_64 rng(11);
       GlobalInput in;
       for (std::uint64_t i = 0; i < 5000; ++i) in.inner.push_back({rng() | (1ULL << 63), rng()});
       for (std::uint64_t i = 0; i < 7000; ++i) {
         const Tuple& r = in.inner[static_cast<std::size_t>(rng() % 5000)];
         in.outer.push_back({i % 3 == 0 ? rng() : r.key, rng()});
       }
       return in;
     }},
    {"keys_in_one_partition",
     [] {
       // More build tuples than one cache-resident table holds on this CPU, so the partition must be split.
       const std::uint64_t n = 2 * cache_resident_build_tuples(8, detect_cpu()) + 1000;
       GlobalInput in;
       for (std::uint64_t i = 0; i < n; ++i) in.inner.push_back({i << 24, i});
       for (std::uint64_t i = 0; i < 2 * n; ++i) in.outer.push_back({(i % (n + n / 6)) << 24, i});
       return in;
     }},
};

enum class Algorithm { radix, sort_merge, cyclo, broadcast, broadcast_udp };

std::string name_of(Algorithm a) {
  switch (a) {
    case Algorithm::radix: return "radix";
    case Algorithm::sort_merge: return "sort_merge";
    case Algorithm::cyclo: return "cyclo";
    case Algorithm::broadcast: return "broadcast";
    case Algorithm::broadcast_udp: return "broadcast_udp";
  }
  return "unknown";
}

// One configuration per algorithm, exercising the same concern (write path,
// threads, compression) plus each algorithm's own knobs.
struct Variant {
  std::string name;
  RadixJoinConfig radix;
  SortMergeJoinConfig sort_merge;
};

RadixJoinConfig make_config(bool force_put, unsigned threads, Assignment assignment, std::size_t buffer_bytes,
                            unsigned buffers, unsigned network_bits = 0, unsigned local_bits = 0, unsigned input_chunks = 0) {
  RadixJoinConfig c;
  c.input_chunks = input_chunks;
  c.force_put = force_put;
  c.threads = threads;
  c.assignment = assignment;
  c.buffer_bytes = buffer_bytes;
  c.buffers_per_partition = buffers;
  c.network_bits = network_bits;
  c.local_bits = local_bits;
  c.keep_pairs = true;
  return c;
}

SortMergeJoinConfig make_sort_merge(bool force_put, unsigned threads, std::size_t run_length, unsigned fan_in,
                                    SendOrder order = SendOrder::shifted, Splitters splitters = Splitters::equal,
                                    unsigned subranges = 0) {
  SortMergeJoinConfig c;
  c.subranges = subranges;
  c.force_put = force_put;
  c.threads = threads;
  c.run_length = run_length;
  c.merge_fan_in = fan_in;
  c.send_order = order;
  c.splitters = splitters;
  c.keep_pairs = true;
  return c;
}

Variant uncompressed_put() {
  Variant v{"uncompressed_put", make_config(true, 1, Assignment::round_robin, 512, 2, 5, 2),
            make_sort_merge(true, 1, 50, 4, SendOrder::shifted, Splitters::equal, 2)};
  v.radix.compression = Compression::off;
  v.sort_merge.compression = Compression::off;
  return v;
}

Variant scheduled(const std::string& name, ExchangeSchedule schedule, ExchangeTransport transport, std::size_t chunk) {
  Variant v{name, make_config(false, 1, Assignment::round_robin, 4096, 2, 4, 0), make_sort_merge(false, 1, 256, 4)};
  v.radix.scheduled = true;
  v.radix.exchange = {schedule, transport, chunk};
  return v;
}

const Variant kVariants[] = {
    {"shared_memory", make_config(false, 1, Assignment::round_robin, 64 * 1024, 2), make_sort_merge(false, 1, 16384, 16)},
    {"put_small_buffers", make_config(true, 1, Assignment::round_robin, 128, 2, 0, 0, 3),
     make_sort_merge(true, 1, 64, 4, SendOrder::shifted, Splitters::equal, 4)},
    {"put_one_buffer", make_config(true, 1, Assignment::skew_aware, 256, 1),
     make_sort_merge(true, 1, 32, 2, SendOrder::natural, Splitters::sampled)},
    {"two_threads_shared", make_config(false, 2, Assignment::skew_aware, 64 * 1024, 2, 0, 0, 5),
     make_sort_merge(false, 2, 128, 3, SendOrder::shifted, Splitters::equal, 1)},
    {"two_threads_put", make_config(true, 3, Assignment::round_robin, 192, 3),
     make_sort_merge(true, 3, 100, 16, SendOrder::shifted, Splitters::equal, 3)},
    {"local_pass", make_config(false, 2, Assignment::round_robin, 4096, 2, 3, 4, 7),
     make_sort_merge(false, 2, 4096, 8, SendOrder::shifted, Splitters::sampled, 5)},
    // 13 local bits: two local passes (7 + 6), most final partitions empty.
    {"two_local_passes", make_config(false, 1, Assignment::skew_aware, 4096, 2, 2, 13),
     make_sort_merge(false, 1, 512, 4, SendOrder::natural, Splitters::sampled, 2)},
    uncompressed_put(),
    scheduled("scheduled_synchronized_puts", ExchangeSchedule::synchronized, ExchangeTransport::put, 1 << 20),
    scheduled("scheduled_unsynchronized_messages", ExchangeSchedule::unsynchronized, ExchangeTransport::messages, 100),
    scheduled("scheduled_random_messages", ExchangeSchedule::random, ExchangeTransport::messages, 4096),
};

// The ring join's own knobs per variant: presort on and off, chunks from
// one cache line (many puts per part) to larger than any part here.
CycloJoinConfig cyclo_config(const Variant& variant, int index) {
  CycloJoinConfig c;
  c.presort = index % 2 == 0;
  const std::size_t chunks[] = {4 << 20, 64, 4096};
  c.chunk_bytes = chunks[index % 3];
  c.compression = variant.sort_merge.compression;
  c.keep_pairs = true;
  return c;
}

// The broadcast join's: chunks of one tuple to larger than any relation
// here, one to three chunks in flight, along the ring or by MPI_Ibcast.
BroadcastJoinConfig broadcast_config(const Variant& variant, int index) {
  BroadcastJoinConfig c;
  c.transport = index % 2 == 0 ? BroadcastTransport::ring : BroadcastTransport::ibcast;
  const std::size_t chunks[] = {1 << 20, 64, 16 * 1024, 256};
  c.chunk_bytes = chunks[index % 4];
  c.depth = 1 + static_cast<unsigned>(index % 3);
  c.compression = variant.sort_merge.compression;
  c.keep_pairs = true;
  return c;
}

// Over UDP broadcast on this host, with lost and repeated datagrams in most
// variants, and batches from one datagram up.
BroadcastJoinConfig udp_config(const Variant& variant, int index) {
  BroadcastJoinConfig c = broadcast_config(variant, index);
  c.transport = BroadcastTransport::udp;
  c.udp.phase_packets = 1 + static_cast<unsigned>(index % 4);
  c.udp.loss = index % 3 == 0 ? 0.0 : 0.3;
  c.udp.duplicates = index % 2 == 0 ? 0.0 : 0.3;
  c.udp.quiet_ms = 2;
  c.udp.seed = static_cast<std::uint64_t>(index + 1);
  return c;
}

std::unique_ptr<DistributedJoin> make_join(Algorithm algorithm, const Variant& variant, int variant_index,
                                           const Relation& inner, const Relation& outer) {
  switch (algorithm) {
    case Algorithm::radix: return std::make_unique<RadixJoin>(cluster(), variant.radix, inner, outer);
    case Algorithm::sort_merge: return std::make_unique<SortMergeJoin>(cluster(), variant.sort_merge, inner, outer);
    case Algorithm::cyclo:
      return std::make_unique<CycloJoin>(cluster(), cyclo_config(variant, variant_index), inner, outer);
    case Algorithm::broadcast:
      return std::make_unique<BroadcastJoin>(cluster(), broadcast_config(variant, variant_index), inner, outer);
    case Algorithm::broadcast_udp:
      return std::make_unique<BroadcastJoin>(cluster(), udp_config(variant, variant_index), inner, outer);
  }
  return nullptr;
}

class JoinTest : public ::testing::TestWithParam<std::tuple<Algorithm, int, int>> {};

TEST_P(JoinTest, MatchesSerialReference) {
  const auto [algorithm, workload_index, variant_index] = GetParam();
  const Workload& workload = kWorkloads[workload_index];
  const Variant& variant = kVariants[variant_index];
  // The ring always moves its parts by puts.
  const bool force_put = algorithm == Algorithm::cyclo ||
                         (algorithm == Algorithm::radix && variant.radix.force_put) ||
                         (algorithm == Algorithm::sort_merge && variant.sort_merge.force_put);
  if (variant.radix.scheduled && algorithm != Algorithm::radix) GTEST_SKIP() << "a radix join variant";
  const GlobalInput input = workload.make();
  const Expected expected = serial_join(input);
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);

  const std::unique_ptr<DistributedJoin> join = make_join(algorithm, variant, variant_index, inner, outer);
  for (int repetition = 0; repetition < 2; ++repetition) {
    const JoinResult result = join->run(inner, outer);
    EXPECT_EQ(result.matches, expected.matches);
    EXPECT_EQ(result.checksum, expected.checksum);
    const std::vector<MatchPair> pairs = gather_pairs(result.pairs);
    EXPECT_EQ(pairs, expected.pairs);
    if (force_put && cluster().size() > 1 && !input.inner.empty() && !input.outer.empty()) {
      EXPECT_GT(result.puts, 0u);
    }
    // A schedule copies what stays on the rank and puts the rest (if any).
    const bool scheduled_puts = variant.radix.scheduled && variant.radix.exchange.transport == ExchangeTransport::put;
    if (!force_put && !scheduled_puts) {
      EXPECT_EQ(result.puts, 0u);
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<Algorithm, int, int>>& info) {
  return name_of(std::get<0>(info.param)) + "__" + kWorkloads[std::get<1>(info.param)].name + "__" +
         kVariants[std::get<2>(info.param)].name;
}

INSTANTIATE_TEST_SUITE_P(Matrix, JoinTest,
                         ::testing::Combine(::testing::Values(Algorithm::radix, Algorithm::sort_merge, Algorithm::cyclo,
                                                              Algorithm::broadcast, Algorithm::broadcast_udp),
                                            ::testing::Range(0, static_cast<int>(std::size(kWorkloads))),
                                            ::testing::Range(0, static_cast<int>(std::size(kVariants)))),
                         case_name);

// One run of the join over this rank's slices of `input`.
JoinResult run_once(const GlobalInput& input, const RadixJoinConfig& config) {
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  RadixJoin join(cluster(), config, inner, outer);
  return join.run(inner, outer);
}

JoinResult run_once(const GlobalInput& input, const SortMergeJoinConfig& config) {
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  SortMergeJoin join(cluster(), config, inner, outer);
  return join.run(inner, outer);
}

TEST(RadixJoinCompression, FallsBackWhenKeysUseAll64Bits) {
  const GlobalInput input = kWorkloads[10].make();
  const JoinResult result = run_once(input, make_config(false, 1, Assignment::round_robin, 65536, 2));
  EXPECT_FALSE(result.radix.compressed);
  EXPECT_EQ(result.radix.tuple_bytes, 16u);
  EXPECT_EQ(result.matches, serial_join(input).matches);
}

TEST(RadixJoinCompression, CompressesDenseKeys) {
  const JoinResult result = run_once(generated(10000, 10000, 0.0, 1.0), make_config(false, 1, Assignment::round_robin, 65536, 2));
  EXPECT_TRUE(result.radix.compressed);
  EXPECT_EQ(result.radix.tuple_bytes, 8u);
  EXPECT_EQ(result.matches, 10000u);
}

TEST(RadixJoinSkew, HeavyPartitionIsSharedByThreads) {
  const GlobalInput input = generated(20000, 600000, 1.2, 1.0);
  const Expected expected = serial_join(input);
  // With local bits the shared final partitions lie in thread 0's scratch.
  for (unsigned local_bits : {0u, 4u}) {  // 4: the local pass also takes the histogram phase's counts
    const JoinResult result = run_once(input, make_config(false, 2, Assignment::skew_aware, 65536, 2, 0, local_bits));
    EXPECT_EQ(result.matches, expected.matches) << local_bits << " local bits";
    EXPECT_EQ(result.checksum, expected.checksum);
    EXPECT_GT(result.radix.probe_splits, 0u);
  }
}

// One thread per rank (the default layout): the ranks of the node share a
// heavy partition by slices of its larger side.
void expect_split_across_ranks(const GlobalInput& input, unsigned local_bits) {
  const JoinResult result = run_once(input, make_config(false, 1, Assignment::skew_aware, 65536, 2, 0, local_bits));
  const Expected expected = serial_join(input);
  EXPECT_EQ(result.matches, expected.matches);
  EXPECT_EQ(result.checksum, expected.checksum);
  EXPECT_EQ(gather_pairs(result.pairs), expected.pairs);
  if (cluster().node_size() > 1) {
    EXPECT_GT(result.radix.probe_splits, 0u);
    EXPECT_GT(result.sharing.peer_partitions, 0u);
  } else {
    EXPECT_EQ(result.radix.probe_splits, 0u);
  }
}

TEST(RadixJoinSkew, HeavyProbePartitionIsSplitAcrossRanks) {
  expect_split_across_ranks(generated(20000, 600000, 1.2, 1.0), 0);
  expect_split_across_ranks(generated(20000, 600000, 1.2, 1.0), 5);
}

TEST(RadixJoinSkew, HeavyBuildPartitionIsSplitAcrossRanks) {
  const GlobalInput probe_heavy = generated(20000, 600000, 1.2, 1.0);
  const GlobalInput build_heavy{probe_heavy.outer, probe_heavy.inner};
  expect_split_across_ranks(build_heavy, 0);
  expect_split_across_ranks(build_heavy, 5);
}

TEST(RadixJoinSkew, NoSplitWithoutNodeSharing) {
  const GlobalInput input = generated(20000, 600000, 1.2, 1.0);
  RadixJoinConfig config = make_config(false, 1, Assignment::skew_aware, 65536, 2);
  config.share_node_work = false;
  const JoinResult result = run_once(input, config);
  EXPECT_EQ(result.matches, serial_join(input).matches);
  EXPECT_EQ(result.radix.probe_splits, 0u);
}

TEST(RadixJoinSkew, OversizedBuildPartitionIsSplit) {
  const GlobalInput input = kWorkloads[11].make();  // every key in one partition
  const JoinResult result = run_once(input, make_config(false, 1, Assignment::round_robin, 65536, 2));
  const Expected expected = serial_join(input);
  EXPECT_EQ(result.matches, expected.matches);
  EXPECT_EQ(result.checksum, expected.checksum);
  EXPECT_GT(result.radix.build_splits, 0u);
}

TEST(RadixJoinPhases, ReportsEveryPhase) {
  const JoinResult result = run_once(generated(1000, 1000, 0.0, 1.0), make_config(false, 1, Assignment::round_robin, 65536, 2));
  std::vector<std::string> names;
  for (const PhaseTime& p : result.phases) {
    names.push_back(p.name);
    EXPECT_GE(p.max, p.mean);
    EXPECT_GE(p.mean, 0.0);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"histogram", "window_allocation", "network_partition", "network_wait",
                                             "local_partition", "build_probe"}));
  EXPECT_GT(result.seconds, 0.0);
}

}  // namespace
}  // namespace hpcdb::testing

namespace hpcdb::testing {
namespace {

TEST(SortMergeJoin, BothAlgorithmsAgreeOnSkewedData) {
  const GlobalInput input = generated(30000, 120000, 1.05, 0.5);
  const JoinResult radix = run_once(input, make_config(false, 1, Assignment::skew_aware, 65536, 2));
  const JoinResult sort_merge = run_once(input, make_sort_merge(false, 1, 1024, 16, SendOrder::shifted, Splitters::sampled));
  EXPECT_EQ(radix.matches, sort_merge.matches);
  EXPECT_EQ(radix.checksum, sort_merge.checksum);
  EXPECT_EQ(radix.matches, 60000u);
}

TEST(SortMergeJoin, PairsComeOutInKeyOrderAcrossRanks) {
  const GlobalInput input = generated(5000, 20000, 0.0, 1.0);
  const JoinResult result = run_once(input, make_sort_merge(false, 2, 256, 4));
  // Concatenate in rank order (no sorting) and look up each pair's key by its inner rid.
  const Cluster& c = cluster();
  const int bytes = static_cast<int>(result.pairs.size() * sizeof(MatchPair));
  std::vector<int> counts(static_cast<std::size_t>(c.size())), offsets(counts.size(), 0);
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, c.world());
  for (std::size_t i = 1; i < counts.size(); ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
  std::vector<MatchPair> all(static_cast<std::size_t>(offsets.back() + counts.back()) / sizeof(MatchPair));
  MPI_Allgatherv(result.pairs.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, c.world());
  ASSERT_EQ(all.size(), 20000u);
  for (std::size_t i = 1; i < all.size(); ++i) {
    ASSERT_LE(input.inner[all[i - 1].rid_r].key, input.inner[all[i].rid_r].key) << "pair " << i;
  }
}

TEST(SortMergeJoin, SampledSplittersBalanceClusteredKeys) {
  // Keys spread over the whole 64-bit space but clustered: equal-width
  // ranges put almost everything into one range, sampled splitters must not.
  GlobalInput input;
  for (std::uint64_t i = 0; i < 40000; ++i) input.inner.push_back({(i % 4 == 0 ? 0xF000000000000000ULL : 0) + i * 7, i});
  input.outer = input.inner;
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  const unsigned ranks = static_cast<unsigned>(cluster().size());
  const KeyRanges sampled = KeyRanges::between_splitters(sample_splitters(cluster(), inner, outer, ranks));
  const KeyRanges equal = KeyRanges::equal_width(7, 0xF000000000000000ULL + 39996 * 7, ranks);
  std::vector<std::size_t> sampled_counts(ranks, 0), equal_counts(ranks, 0);
  for (const Tuple& t : input.inner) {
    ++sampled_counts[sampled.range_of(t.key)];
    ++equal_counts[equal.range_of(t.key)];
  }
  const double fair = 40000.0 / ranks;
  for (unsigned r = 0; r < ranks; ++r) {
    EXPECT_GT(sampled_counts[r], 0.8 * fair) << "range " << r;
    EXPECT_LT(sampled_counts[r], 1.2 * fair) << "range " << r;
  }
  if (ranks > 1) {
    EXPECT_GT(*std::max_element(equal_counts.begin(), equal_counts.end()), 0.7 * 40000);
  }
  EXPECT_EQ(run_once(input, make_sort_merge(false, 1, 512, 16, SendOrder::shifted, Splitters::sampled)).matches, 40000u);
}

TEST(SortMergeJoinPhases, ReportsEveryPhase) {
  const JoinResult result = run_once(generated(1000, 1000, 0.0, 1.0),
                                     make_sort_merge(false, 1, 64, 4, SendOrder::shifted, Splitters::equal, 1));
  std::vector<std::string> names;
  for (const PhaseTime& p : result.phases) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"partition", "window_allocation", "sort", "sort_wait", "merge", "match"}));
  EXPECT_GE(result.sort_merge.merge_levels, 1u);
}

}  // namespace
}  // namespace hpcdb::testing

namespace hpcdb::testing {
namespace {

// Lost datagrams are asked for again and resent, repeated ones are joined
// once: the result is exact with a third of all datagrams lost and a third
// sent twice.
TEST(BroadcastJoinUdp, ExactUnderLossAndDuplication) {
  const GlobalInput input = generated(20000, 60000, 0.0, 1.0);
  const Expected expected = serial_join(input);
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  BroadcastJoinConfig config;
  config.transport = BroadcastTransport::udp;
  config.compression = Compression::off;  // 4093 tuples per datagram, as in the thesis
  config.udp.phase_packets = 2;
  config.udp.loss = 0.33;
  config.udp.duplicates = 0.33;
  config.udp.quiet_ms = 2;
  config.udp.seed = 99;
  BroadcastJoin join(cluster(), config, inner, outer);
  for (int repetition = 0; repetition < 2; ++repetition) {
    const JoinResult result = join.run(inner, outer);
    EXPECT_EQ(result.matches, expected.matches);
    EXPECT_EQ(result.checksum, expected.checksum);
    EXPECT_TRUE(result.stream.udp);
    std::uint64_t datagrams = 0;  // first sends: each fragment in datagrams of 4093 tuples
    const auto ranks = static_cast<std::size_t>(cluster().size());
    for (std::size_t r = 0; r < ranks && ranks > 1; ++r) {
      datagrams += (split_point(60000, ranks, r + 1) - split_point(60000, ranks, r) + 4092) / 4093;
    }
    EXPECT_EQ(result.stream.datagrams, datagrams);
    if (cluster().size() > 1) {
      EXPECT_GT(result.stream.dropped_on_purpose, 0u);
      EXPECT_GT(result.stream.resent, 0u);
      EXPECT_GT(result.stream.duplicates_seen, 0u);
    }
  }
}

}  // namespace
}  // namespace hpcdb::testing
