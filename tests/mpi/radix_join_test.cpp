// The radix hash join against a serial reference, over a matrix of inputs
// (empty, tiny, duplicates, skew, ratios, selectivity, 64-bit keys, patterns)
// and configurations (shared-memory and put paths, threads, assignment,
// buffer sizes, explicit radix bits).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "hpcdb/data/workload_generator.hpp"
#include "hpcdb/join/radix/radix_join.hpp"
#include "mpi/join_test_support.hpp"

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
       GlobalInput in;
       for (std::uint64_t i = 0; i < 30000; ++i) in.inner.push_back({i << 24, i});
       for (std::uint64_t i = 0; i < 60000; ++i) in.outer.push_back({(i % 35000) << 24, i});
       return in;
     }},
};

struct Variant {
  std::string name;
  RadixJoinConfig config;
};

RadixJoinConfig make_config(bool force_put, unsigned threads, Assignment assignment, std::size_t buffer_bytes,
                            unsigned buffers, unsigned network_bits = 0, unsigned local_bits = 0) {
  RadixJoinConfig c;
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

const Variant kVariants[] = {
    {"shared_memory", make_config(false, 1, Assignment::round_robin, 64 * 1024, 2)},
    {"put_small_buffers", make_config(true, 1, Assignment::round_robin, 128, 2)},
    {"put_one_buffer", make_config(true, 1, Assignment::skew_aware, 256, 1)},
    {"two_threads_shared", make_config(false, 2, Assignment::skew_aware, 64 * 1024, 2)},
    {"two_threads_put", make_config(true, 3, Assignment::round_robin, 192, 3)},
    {"local_pass", make_config(false, 2, Assignment::round_robin, 4096, 2, 3, 4)},
    {"uncompressed_put", [] {
       RadixJoinConfig c = make_config(true, 1, Assignment::round_robin, 512, 2, 5, 2);
       c.compression = Compression::off;
       return c;
     }()},
};

class RadixJoinTest : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(RadixJoinTest, MatchesSerialReference) {
  const Workload& workload = kWorkloads[std::get<0>(GetParam())];
  const Variant& variant = kVariants[std::get<1>(GetParam())];
  const GlobalInput input = workload.make();
  const Expected expected = serial_join(input);
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);

  RadixJoin join(cluster(), variant.config, inner, outer);
  for (int repetition = 0; repetition < 2; ++repetition) {
    const JoinResult result = join.run(inner, outer);
    EXPECT_EQ(result.matches, expected.matches) << workload.name << " / " << variant.name;
    EXPECT_EQ(result.checksum, expected.checksum) << workload.name << " / " << variant.name;
    const std::vector<MatchPair> pairs = gather_pairs(result.pairs);
    EXPECT_EQ(pairs, expected.pairs) << workload.name << " / " << variant.name;
    if (variant.config.force_put && cluster().size() > 1 && !input.inner.empty() && !input.outer.empty()) {
      EXPECT_GT(result.puts, 0u);
    }
    if (!variant.config.force_put) {
      EXPECT_EQ(result.puts, 0u);
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
  return kWorkloads[std::get<0>(info.param)].name + "__" + kVariants[std::get<1>(info.param)].name;
}

INSTANTIATE_TEST_SUITE_P(Matrix, RadixJoinTest,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kWorkloads))),
                                            ::testing::Range(0, static_cast<int>(std::size(kVariants)))),
                         case_name);

// One run of the join over this rank's slices of `input`.
JoinResult run_once(const GlobalInput& input, const RadixJoinConfig& config) {
  const Relation inner = slice_for_this_rank(input.inner);
  const Relation outer = slice_for_this_rank(input.outer);
  RadixJoin join(cluster(), config, inner, outer);
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
  const JoinResult result = run_once(input, make_config(false, 2, Assignment::skew_aware, 65536, 2));
  const Expected expected = serial_join(input);
  EXPECT_EQ(result.matches, expected.matches);
  EXPECT_EQ(result.checksum, expected.checksum);
  EXPECT_GT(result.radix.probe_splits, 0u);
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
