// KeyRanges::lowest_key against range_of() over every key of small domains.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/sortmerge/key_ranges.hpp"
#include "hpcdb/join/sortmerge/splitter_index.hpp"

namespace hpcdb {
namespace {

// For every range c: the lowest key is the first key in [first, last] that
// range_of() maps to c or later (or last when there is none).
void expect_lowest_keys_match(const KeyRanges& ranges, std::uint64_t first, std::uint64_t last) {
  for (unsigned c = 0; c < ranges.count(); ++c) {
    std::uint64_t expected = last;
    for (std::uint64_t k = first; k <= last; ++k) {
      if (ranges.range_of(k) >= c) {
        expected = k;
        break;
      }
    }
    ASSERT_EQ(ranges.lowest_key(c), expected) << "range " << c;
  }
}

TEST(KeyRanges, LowestKeyOfEqualWidthRanges) {
  expect_lowest_keys_match(KeyRanges::equal_width(1000, 1999, 7), 1000, 1999);        // uneven widths
  expect_lowest_keys_match(KeyRanges::equal_width(5, 9, 8), 5, 9);                    // one key per range
  expect_lowest_keys_match(KeyRanges::equal_width(0, 4095, 4096), 0, 4095);
  expect_lowest_keys_match(KeyRanges::equal_width(~0ULL - 3000, ~0ULL, 64), ~0ULL - 3000, ~0ULL - 1);
  EXPECT_EQ(KeyRanges::equal_width(~0ULL - 3000, ~0ULL, 64).lowest_key(0), ~0ULL - 3000);
  // Beyond the largest key, range_of() is not monotone: never searched there.
  const KeyRanges wide = KeyRanges::equal_width(0, (1ULL << 40) - 1, 1024);
  EXPECT_EQ(wide.lowest_key(1), 1ULL << 30);
  EXPECT_EQ(wide.lowest_key(1023), 1023ULL << 30);
}

// Equal-width ranges take a 64-bit or a 128-bit multiply depending on the
// span: either way every range is about span / ranges keys wide, the first
// and last keys fall into the first and last range, and the range never
// decreases with the key.
TEST(KeyRanges, EqualWidthRangesAreBalancedForEverySpan) {
  struct Case {
    std::uint64_t min_key, max_key;
    unsigned ranges;
  };
  const Case cases[] = {
      {0, 32'000'000 - 1, 2048},          // the benchmark: 64-bit multiply
      {1, 32'000'000, 2048},              // keys from 1
      {12345, 12345 + 999'999, 7},        // few, uneven ranges
      {0, (1ULL << 36) - 1, 4096},        // near the 64-bit path's limit
      {0, (1ULL << 40) - 1, 1024},        // 128-bit multiply
      {5, ~0ULL - 5, 3},                  // almost all 64-bit keys
      {~0ULL - 100'000, ~0ULL, 1000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "[" << c.min_key << ", " << c.max_key << "] in " << c.ranges);
    const KeyRanges ranges = KeyRanges::equal_width(c.min_key, c.max_key, c.ranges);
    EXPECT_EQ(ranges.range_of(c.min_key), 0u);
    EXPECT_EQ(ranges.range_of(c.max_key), c.ranges - 1);
    const long double width = (static_cast<long double>(c.max_key - c.min_key) + 1) / c.ranges;
    for (unsigned r = 0; r + 1 < c.ranges; ++r) {
      const long double measured = static_cast<long double>(ranges.lowest_key(r + 1) - ranges.lowest_key(r));
      ASSERT_LE(std::abs(measured - width), 1 + width * 1e-6) << "range " << r;
    }
    for (std::uint64_t i = 1; i <= 1000; ++i) {
      const std::uint64_t key = c.min_key + static_cast<std::uint64_t>((c.max_key - c.min_key) / 1000.0L * i);
      ASSERT_GE(ranges.range_of(key), ranges.range_of(key - 1)) << "key " << key;
    }
  }
}

TEST(KeyRanges, LowestKeyOfSplitterRanges) {
  const KeyRanges ranges = KeyRanges::between_splitters({10, 10, 25, 400});
  expect_lowest_keys_match(ranges, 0, 500);
  EXPECT_EQ(ranges.lowest_key(3), 26u);
  EXPECT_EQ(ranges.lowest_key(4), 401u);
}

// The bucketed splitter lookup against a binary search over all splitters:
// uniform, clustered and duplicate splitters, keys over the whole 64 bits.
TEST(KeyRanges, SplitterRangesMatchABinarySearch) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<std::uint64_t>> sets = {
      {0}, {~0ULL}, {10, 10, 25, 400}, {0, ~0ULL}, {5, 5, 5, 5, 5}};
  for (unsigned size : {1u, 3u, 100u, 2047u, 20000u}) {
    std::vector<std::uint64_t> uniform(size), clustered(size), small(size);
    for (unsigned i = 0; i < size; ++i) {
      uniform[i] = rng();
      // 90% of the splitters within 1000 keys, the rest anywhere: many in one bucket.
      clustered[i] = i % 10 != 0 ? (1ULL << 40) + rng() % 1000 : rng();
      small[i] = rng() % 64;  // duplicates
    }
    sets.push_back(uniform);
    sets.push_back(clustered);
    sets.push_back(small);
  }
  for (std::vector<std::uint64_t>& splitters : sets) {
    std::sort(splitters.begin(), splitters.end());
    SCOPED_TRACE(testing::Message() << splitters.size() << " splitters from " << splitters.front() << " to "
                                    << splitters.back());
    const KeyRanges ranges = KeyRanges::between_splitters(splitters);
    ASSERT_EQ(ranges.count(), splitters.size() + 1);
    std::vector<std::uint64_t> keys = {0, 1, ~0ULL, ~0ULL - 1};
    for (std::uint64_t splitter : splitters) {
      keys.push_back(splitter);
      keys.push_back(splitter + 1);
      keys.push_back(splitter - 1);
    }
    for (int i = 0; i < 20000; ++i) {
      keys.push_back(rng());
      keys.push_back(splitters[rng() % splitters.size()] + rng() % 5 - 2);
    }
    for (std::uint64_t key : keys) {
      const auto expected =
          static_cast<unsigned>(std::lower_bound(splitters.begin(), splitters.end(), key) - splitters.begin());
      ASSERT_EQ(ranges.range_of(key), expected) << "key " << key;
    }
  }
}

// Clustered splitters make the index cut crowded buckets again, down to
// buckets one key wide (many equal splitters): still std::lower_bound.
TEST(SplitterIndex, CutsCrowdedBucketsAndStaysExact) {
  std::vector<std::uint64_t> splitters = {0, ~0ULL};
  for (std::uint64_t i = 0; i < 3000; ++i) splitters.push_back((1ULL << 40) + i / 3);  // runs of 3 equal
  for (int i = 0; i < 50; ++i) splitters.push_back(77);                                 // one heavy key
  std::sort(splitters.begin(), splitters.end());
  const SplitterIndex index(splitters);
  EXPECT_GT(index.tables(), 2u);
  const SplitterIndex::View view = index.view(splitters);
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> keys = {0, 1, 76, 77, 78, ~0ULL, ~0ULL - 1, 1ULL << 40, (1ULL << 40) + 1000};
  for (int i = 0; i < 20000; ++i) {
    keys.push_back(rng());
    keys.push_back((1ULL << 40) + rng() % 1100 - 50);
  }
  for (std::uint64_t key : keys) {
    const auto expected =
        static_cast<unsigned>(std::lower_bound(splitters.begin(), splitters.end(), key) - splitters.begin());
    ASSERT_EQ(view.range_of(key), expected) << "key " << key;
  }
  EXPECT_THROW(SplitterIndex(std::vector<std::uint64_t>{}), Error);
}

}  // namespace
}  // namespace hpcdb
