#include "hpcdb/kernels/merge_join_scan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {
namespace {

MatchCollector scan(const std::vector<Tuple>& r, const std::vector<Tuple>& s, bool keep_pairs = true) {
  MatchCollector out;
  out.keep_pairs = keep_pairs;
  merge_join_scan(
      r.data(), r.size(), s.data(), s.size(), [](const Tuple& t) { return t.key; }, [](const Tuple& t) { return t.rid; },
      out);
  return out;
}

std::vector<Tuple> sorted_random(std::size_t n, std::uint64_t keys, std::uint64_t seed, std::uint64_t rid_base) {
  std::mt19937_64 rng(seed);
  std::vector<Tuple> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back({rng() % keys, rid_base + i});
  std::sort(v.begin(), v.end(), [](const Tuple& a, const Tuple& b) { return a.key < b.key; });
  return v;
}

TEST(MergeJoinScan, DuplicatesOnBothSidesGiveEveryPair) {
  const std::vector<Tuple> r = sorted_random(2000, 60, 1, 0);
  const std::vector<Tuple> s = sorted_random(3000, 80, 2, 100000);
  std::multimap<std::uint64_t, std::uint64_t> index;
  for (const Tuple& t : r) index.emplace(t.key, t.rid);
  std::vector<MatchPair> expected;
  std::uint64_t checksum = 0;
  for (const Tuple& t : s) {
    auto [b, e] = index.equal_range(t.key);
    for (auto it = b; it != e; ++it) {
      expected.push_back({it->second, t.rid});
      checksum += pair_checksum(it->second, t.rid);
    }
  }
  MatchCollector out = scan(r, s);
  EXPECT_EQ(out.count, expected.size());
  EXPECT_EQ(out.checksum, checksum);
  std::sort(out.pairs.begin(), out.pairs.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(out.pairs, expected);
  // Without pairs, the scan sums each group's checksum in closed form: the
  // same count and checksum, large rids wrapping modulo 2^64 included.
  const MatchCollector counted = scan(r, s, false);
  EXPECT_TRUE(counted.pairs.empty());
  EXPECT_EQ(counted.count, out.count);
  EXPECT_EQ(counted.checksum, checksum);
  std::vector<Tuple> r_wide = r, s_wide = s;
  std::uint64_t wide_checksum = 0;
  for (Tuple& t : r_wide) t.rid = ~t.rid;
  for (Tuple& t : s_wide) t.rid *= 0xD6E8FEB86659FD93ULL;
  const MatchCollector wide_pairs = scan(r_wide, s_wide);
  for (const MatchPair& p : wide_pairs.pairs) wide_checksum += pair_checksum(p.rid_r, p.rid_s);
  EXPECT_EQ(wide_pairs.checksum, wide_checksum);
  EXPECT_EQ(scan(r_wide, s_wide, false).checksum, wide_checksum);
}

TEST(MergeJoinScan, EdgeCases) {
  EXPECT_EQ(scan({}, {}).count, 0u);
  EXPECT_EQ(scan({{1, 1}}, {}).count, 0u);
  EXPECT_EQ(scan({}, {{1, 1}}).count, 0u);
  EXPECT_EQ(scan({{1, 1}}, {{2, 2}}).count, 0u);
  EXPECT_EQ(scan({{5, 1}, {5, 2}, {5, 3}}, {{5, 7}, {5, 8}}).count, 6u);
  // Matches at both ends, gaps in between, the largest key.
  const std::uint64_t top = ~std::uint64_t{0};
  EXPECT_EQ(scan({{0, 1}, {3, 2}, {top, 3}}, {{0, 9}, {1, 9}, {2, 9}, {top, 9}, {top, 10}}).count, 3u);
}

TEST(MergeJoinScan, PairsComeInKeyOrder) {
  const std::vector<Tuple> r = sorted_random(500, 100, 3, 0);
  const std::vector<Tuple> s = sorted_random(500, 100, 4, 1000);
  std::vector<std::uint64_t> key_of_rid(r.size());
  for (const Tuple& t : r) key_of_rid[t.rid] = t.key;
  const MatchCollector out = scan(r, s);
  ASSERT_FALSE(out.pairs.empty());
  for (std::size_t i = 1; i < out.pairs.size(); ++i) {
    EXPECT_LE(key_of_rid[out.pairs[i - 1].rid_r], key_of_rid[out.pairs[i].rid_r]);
  }
}

}  // namespace
}  // namespace hpcdb
