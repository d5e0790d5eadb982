// KeyRanges::lowest_key against range_of() over every key of small domains.
#include <gtest/gtest.h>

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

TEST(KeyRanges, LowestKeyOfSplitterRanges) {
  const KeyRanges ranges = KeyRanges::between_splitters({10, 10, 25, 400});
  expect_lowest_keys_match(ranges, 0, 500);
  EXPECT_EQ(ranges.lowest_key(3), 26u);
  EXPECT_EQ(ranges.lowest_key(4), 401u);
}

}  // namespace
}  // namespace hpcdb
