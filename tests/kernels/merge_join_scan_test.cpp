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

// Every pair by a hash index over r, and their checksum.
std::vector<MatchPair> reference_pairs(const std::vector<Tuple>& r, const std::vector<Tuple>& s, std::uint64_t& checksum) {
  std::multimap<std::uint64_t, std::uint64_t> index;
  for (const Tuple& t : r) index.emplace(t.key, t.rid);
  std::vector<MatchPair> pairs;
  checksum = 0;
  for (const Tuple& t : s) {
    auto [b, e] = index.equal_range(t.key);
    for (auto it = b; it != e; ++it) {
      pairs.push_back({it->second, t.rid});
      checksum += pair_checksum(it->second, t.rid);
    }
  }
  return pairs;
}

TEST(MergeJoinScan, DuplicatesOnBothSidesGiveEveryPair) {
  const std::vector<Tuple> r = sorted_random(2000, 60, 1, 0);
  const std::vector<Tuple> s = sorted_random(3000, 80, 2, 100000);
  std::uint64_t checksum = 0;
  std::vector<MatchPair> expected = reference_pairs(r, s, checksum);
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

// Keys that match one to one for stretches (the scan's four-pair blocks),
// broken by keys missing on one side and keys repeated on one or both, at
// every distance from the ends.
TEST(MergeJoinScan, OneToOneStretchesMixedWithGapsAndDuplicates) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<Tuple> r, s;
    const std::uint64_t keys = 1 + rng() % 300;
    const unsigned disturbance = 1 + static_cast<unsigned>(rng() % 40);  // one key in this many is not one-to-one
    for (std::uint64_t k = 0; k < keys; ++k) {
      unsigned in_r = 1, in_s = 1;
      if (rng() % disturbance == 0) {
        in_r = static_cast<unsigned>(rng() % 3);
        in_s = static_cast<unsigned>(rng() % 3);
      }
      for (unsigned c = 0; c < in_r; ++c) r.push_back({k, r.size()});
      for (unsigned c = 0; c < in_s; ++c) s.push_back({k, 1000000 + s.size()});
    }
    std::uint64_t checksum = 0;
    std::vector<MatchPair> expected = reference_pairs(r, s, checksum);
    MatchCollector out = scan(r, s);
    ASSERT_EQ(out.count, expected.size()) << "round " << round;
    ASSERT_EQ(out.checksum, checksum) << "round " << round;
    std::sort(out.pairs.begin(), out.pairs.end());
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(out.pairs, expected) << "round " << round;
    const MatchCollector counted = scan(r, s, false);
    ASSERT_EQ(counted.count, expected.size()) << "round " << round;
    ASSERT_EQ(counted.checksum, checksum) << "round " << round;
  }
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
