#include "hpcdb/data/counter_rng.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

namespace hpcdb {
namespace {

std::vector<std::uint64_t> draws(std::uint64_t seed, std::uint64_t stream, std::uint64_t index, int count) {
  CounterRng rng(seed, stream, index);
  std::vector<std::uint64_t> values;
  for (int i = 0; i < count; ++i) values.push_back(rng.next_u64());
  return values;
}

TEST(CounterRng, SameCoordinatesGiveTheSameSequence) {
  EXPECT_EQ(draws(7, 3, 123456789, 16), draws(7, 3, 123456789, 16));
}

TEST(CounterRng, EachCoordinateChangesTheSequence) {
  const auto base = draws(7, 3, 100, 4);
  EXPECT_NE(base, draws(8, 3, 100, 4));
  EXPECT_NE(base, draws(7, 4, 100, 4));
  EXPECT_NE(base, draws(7, 3, 101, 4));
}

TEST(CounterRng, NeighbouringIndicesDoNotShareValues) {
  // A plain Weyl sequence indexed by j would make draw 2 of index j equal to
  // draw 1 of index j + 1.
  for (std::uint64_t j = 0; j < 1000; ++j) {
    const auto a = draws(1, 0, j, 4);
    const auto b = draws(1, 0, j + 1, 4);
    for (auto x : a)
      for (auto y : b) ASSERT_NE(x, y) << "index " << j;
  }
}

TEST(CounterRng, FirstDrawsOfNeighbouringIndicesLookIndependent) {
  // About half of the bits differ between the first draws of j and j + 1.
  double differing = 0;
  constexpr int kPairs = 20000;
  for (int j = 0; j < kPairs; ++j) {
    const auto x = CounterRng(5, 9, static_cast<std::uint64_t>(j)).next_u64();
    const auto y = CounterRng(5, 9, static_cast<std::uint64_t>(j) + 1).next_u64();
    differing += std::popcount(x ^ y);
  }
  EXPECT_NEAR(differing / kPairs, 32.0, 0.2);
}

TEST(CounterRng, DoublesAreUniformInUnitInterval) {
  CounterRng rng(42, 1, 0);
  constexpr int kDraws = 1000000;
  constexpr int kBuckets = 10;
  std::vector<int> buckets(kBuckets, 0);
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double u = rng.next_double();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    ++buckets[static_cast<int>(u * kBuckets)];
  }
  EXPECT_NEAR(sum / kDraws, 0.5, 0.002);
  for (int b = 0; b < kBuckets; ++b) EXPECT_NEAR(buckets[b], kDraws / kBuckets, 1500) << "bucket " << b;
}

}  // namespace
}  // namespace hpcdb
