#include "hpcdb/kernels/hash_table.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "hpcdb/kernels/tuple_format.hpp"

namespace hpcdb {
namespace {

std::uint64_t count_matches(const std::vector<Tuple>& r, const std::vector<Tuple>& s) {
  BucketChainTable<WideFormat> table(WideFormat{0}, 0);
  table.build(r.data(), r.size());
  std::uint64_t n = 0;
  table.probe(s.data(), s.size(), [&](const Tuple& a, const Tuple& b) {
    EXPECT_EQ(a.key, b.key);
    ++n;
  });
  return n;
}

TEST(BucketChainTable, FindsEveryPairWithDuplicates) {
  std::mt19937_64 rng(5);
  std::vector<Tuple> r, s;
  std::map<std::uint64_t, std::uint64_t> r_count;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    r.push_back({rng() % 400, i});
    ++r_count[r.back().key];
  }
  std::uint64_t expected = 0;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    s.push_back({rng() % 500, i});
    expected += r_count[s.back().key];
  }
  EXPECT_EQ(count_matches(r, s), expected);
}

TEST(BucketChainTable, EveryBuildLengthFindsAllPairs) {
  // Lengths around the build's batches of eight and pairs, keys from a small
  // domain so that neighbours often share a bucket.
  std::mt19937_64 rng(11);
  for (std::size_t n = 0; n <= 27; ++n) {
    std::vector<Tuple> r, s;
    for (std::uint64_t i = 0; i < n; ++i) r.push_back({rng() % 6, i});
    for (std::uint64_t i = 0; i < 40; ++i) s.push_back({rng() % 8, i});
    std::uint64_t expected = 0;
    for (const Tuple& a : r) {
      for (const Tuple& b : s) expected += a.key == b.key;
    }
    EXPECT_EQ(count_matches(r, s), expected) << n << " build tuples";
  }
}

TEST(BucketChainTable, EmptyAndSingle) {
  EXPECT_EQ(count_matches({}, {{1, 1}}), 0u);
  EXPECT_EQ(count_matches({{1, 1}}, {}), 0u);
  EXPECT_EQ(count_matches({{1, 1}}, {{1, 2}, {2, 3}}), 1u);
}

TEST(BucketChainTable, PatternedKeysStillSpread) {
  std::vector<Tuple> r;
  for (std::uint64_t i = 0; i < 4096; ++i) r.push_back({i << 32, i});
  std::vector<Tuple> s = r;
  EXPECT_EQ(count_matches(r, s), 4096u);
}

TEST(BucketChainTable, CompressedFormatComparesKeysOnly) {
  const CompressedFormat format{4, 20};
  std::vector<std::uint64_t> r = {format.encode({0x50, 1}), format.encode({0x60, 2})};
  std::vector<std::uint64_t> s = {format.encode({0x50, 7}), format.encode({0x70, 8})};
  BucketChainTable<CompressedFormat> table(format, 0);
  table.build(r.data(), r.size());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  table.probe(s.data(), s.size(), [&](std::uint64_t a, std::uint64_t b) { pairs.push_back({format.rid(a), format.rid(b)}); });
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], std::make_pair(std::uint64_t{1}, std::uint64_t{7}));
}

}  // namespace
}  // namespace hpcdb
