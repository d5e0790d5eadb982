// KeyRanges::lowest_key against range_of() over every key of small domains.
#include <gtest/gtest.h>

#include <cmath>

#include "hpcdb/join/sortmerge/key_ranges.hpp"

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
// and last keys fall into the first and last range, and the hot loop's
// range function (visit) agrees with range_of().
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
    ranges.visit([&](auto range_of) {
      for (std::uint64_t i = 0; i <= 1000; ++i) {
        const std::uint64_t key = c.min_key + static_cast<std::uint64_t>((c.max_key - c.min_key) / 1000.0L * i);
        ASSERT_EQ(range_of(key), ranges.range_of(key)) << "key " << key;
        if (i > 0) {
          ASSERT_GE(range_of(key), ranges.range_of(key - 1)) << "key " << key;
        }
      }
    });
  }
}

TEST(KeyRanges, LowestKeyOfSplitterRanges) {
  const KeyRanges ranges = KeyRanges::between_splitters({10, 10, 25, 400});
  expect_lowest_keys_match(ranges, 0, 500);
  EXPECT_EQ(ranges.lowest_key(3), 26u);
  EXPECT_EQ(ranges.lowest_key(4), 401u);
}

}  // namespace
}  // namespace hpcdb
