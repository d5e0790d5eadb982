// The sort-based joins' pieces: every way of joining two sorted arrays
// (merge scan, galloping, blocks of either) gives the pairs a hash join
// gives, for both tuple formats.
#include "hpcdb/join/sorted_values.hpp"

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
  for (int way = 0; way < 4; ++way) {
    MatchCollector got;
    got.keep_pairs = true;
    std::size_t calls = 0;
    if (way == 0) gallop_join(format, r.data(), r.size(), s.data(), s.size(), got);
    const std::size_t blocks[] = {0, 1, 7, 1 << 20};
    if (way > 0) join_sorted_in_blocks(format, r.data(), r.size(), s.data(), s.size(), blocks[way], got, [&] { ++calls; });
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

}  // namespace
}  // namespace hpcdb
