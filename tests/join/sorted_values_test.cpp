// The sort-based joins' pieces: every way of joining two sorted arrays
// (merge scan, galloping, blocks of either, R's key directory with sorted or
// unsorted visitors) gives the pairs a hash join gives, for both tuple formats.
#include "hpcdb/join/sorted_values.hpp"

#include "hpcdb/join/key_directory.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <unordered_map>
#include <vector>

namespace hpcdb {
namespace {

struct Case {
  std::vector<Tuple> r, s;
};

Case random_case(std::size_t nr, std::size_t ns, std::uint64_t key_range, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Case c;
  for (std::size_t i = 0; i < nr; ++i) c.r.push_back({rng() % key_range, i});
  for (std::size_t i = 0; i < ns; ++i) c.s.push_back({rng() % key_range, 100000 + i});
  return c;
}

MatchCollector hash_join(const Case& c) {
  std::unordered_multimap<std::uint64_t, std::uint64_t> table;
  for (const Tuple& t : c.r) table.emplace(t.key, t.rid);
  MatchCollector out;
  for (const Tuple& t : c.s) {
    auto [first, last] = table.equal_range(t.key);
    for (auto it = first; it != last; ++it) {
      out.pairs.push_back({it->second, t.rid});
      ++out.count;
      out.checksum += pair_checksum(it->second, t.rid);
    }
  }
  std::sort(out.pairs.begin(), out.pairs.end());
  return out;
}

template <class Format>
std::vector<typename Format::Stored> sorted(const Format& format, const std::vector<Tuple>& tuples) {
  std::vector<typename Format::Stored> values(tuples.size()), scratch(tuples.size());
  encode_into(format, std::span<const Tuple>(tuples), values.data());
  sort_by_key(values.data(), values.size(), scratch.data());
  return values;
}

template <class Format>
void expect_all_ways_agree(const Format& format, const Case& c) {
  const MatchCollector expected = hash_join(c);
  const auto r = sorted(format, c.r), s = sorted(format, c.s);
  std::vector<typename Format::Stored> unsorted_s(c.s.size());
  encode_into(format, std::span<const Tuple>(c.s), unsorted_s.data());
  const KeyDirectory<Format> directory(format, r.data(), r.size());
  for (int way = 0; way < 6; ++way) {
    MatchCollector got;
    got.keep_pairs = true;
    std::size_t calls = 0;
    const std::size_t blocks[] = {0, 1, 7, 1 << 20, 7, 1 << 20};
    if (way == 0) gallop_join(format, r.data(), r.size(), s.data(), s.size(), got);
    if (way >= 1 && way <= 3) {
      join_sorted_in_blocks(format, r.data(), r.size(), s.data(), s.size(), blocks[way], got, [&] { ++calls; });
    }
    if (way == 4) directory.join_in_blocks(s.data(), s.size(), blocks[way], got, [&] { ++calls; });
    if (way == 5) directory.join_in_blocks(unsorted_s.data(), unsorted_s.size(), blocks[way], got, [&] { ++calls; });
    std::sort(got.pairs.begin(), got.pairs.end());
    EXPECT_EQ(got.count, expected.count) << "way " << way;
    EXPECT_EQ(got.checksum, expected.checksum) << "way " << way;
    EXPECT_EQ(got.pairs, expected.pairs) << "way " << way;
    if (way > 0) {
      EXPECT_EQ(calls, (s.size() + blocks[way] - 1) / blocks[way]) << "way " << way;
    }
  }
}

TEST(SortedValues, EveryJoinAgreesWithAHashJoin) {
  const Case cases[] = {
      random_case(0, 0, 10, 1),        random_case(0, 50, 10, 2),       random_case(50, 0, 10, 3),
      random_case(1, 1, 1, 4),         random_case(3000, 3000, 50, 5),  // many duplicates
      random_case(20000, 300, 1 << 30, 6),                              // small s against long r: galloping
      random_case(300, 20000, 5000, 7), random_case(5000, 5000, 1 << 12, 8),
      random_case(5000, 5000, ~0ULL, 9),  // keys over the whole 64-bit range
  };
  for (const Case& c : cases) {
    expect_all_ways_agree(WideTupleFormat{}, c);
    std::uint64_t min_key = ~0ULL, rid_or = 0;
    for (const auto* side : {&c.r, &c.s}) {
      for (const Tuple& t : *side) {
        min_key = std::min(min_key, t.key);
        rid_or |= t.rid;
      }
    }
    if (min_key == ~0ULL) min_key = 0;
    expect_all_ways_agree(OffsetCompressedFormat{min_key, static_cast<unsigned>(std::bit_width(rid_or))}, c);
  }
}

TEST(SortedValues, GallopingFindsKeysAtBothEnds) {
  Case c;
  for (std::uint64_t i = 0; i < 10000; ++i) c.r.push_back({i * 2, i});
  c.s = {{0, 1}, {1, 2}, {19998, 3}, {19999, 4}, {30000, 5}};
  expect_all_ways_agree(WideTupleFormat{}, c);
}

TEST(KeyDirectory, CrowdedAndEmptyBucketsFindEveryKey) {
  // Most keys crowd one bucket of a directory whose range a few far keys
  // stretch: that bucket is searched, the empty ones between are skipped.
  Case c;
  for (std::uint64_t i = 0; i < 4000; ++i) c.r.push_back({i % 700, i});
  for (std::uint64_t i = 0; i < 4; ++i) c.r.push_back({(1ULL << 40) + i * (1ULL << 38), 5000 + i});
  for (std::uint64_t i = 0; i < 3000; ++i) c.s.push_back({(i * 7919) % 800, 10000 + i});
  c.s.push_back({1ULL << 40, 20000});
  c.s.push_back({(1ULL << 40) + 1, 20001});
  expect_all_ways_agree(WideTupleFormat{}, c);
  std::vector<Tuple> r = c.r;
  std::sort(r.begin(), r.end(), [](const Tuple& a, const Tuple& b) { return a.key < b.key; });
  const KeyDirectory<WideTupleFormat> directory(WideTupleFormat{}, r.data(), r.size());
  EXPECT_LE(directory.buckets(), key_directory_buckets(r.size()));  // what the memory estimate counts
  EXPECT_GT(directory.buckets(), 1u);
}

TEST(KeyDirectory, SizeForEstimates) {
  EXPECT_EQ(key_directory_buckets(0), 1u);
  EXPECT_EQ(key_directory_buckets(7), 1u);
  EXPECT_EQ(key_directory_buckets(4000), 512u);
  EXPECT_EQ(key_directory_bytes(4000), 513u * sizeof(std::size_t));
}

}  // namespace
}  // namespace hpcdb
