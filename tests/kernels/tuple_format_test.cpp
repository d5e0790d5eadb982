#include "hpcdb/kernels/tuple_format.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hpcdb/kernels/radix_histogram.hpp"

namespace hpcdb {
namespace {

TEST(TupleFormat, CompressionRoundTripsResidualKeyAndRid) {
  const CompressedFormat f{10, 27};
  const Tuple t{(123456ULL << 10) | 77, (1ULL << 27) - 1};
  const std::uint64_t v = f.encode(t);
  EXPECT_EQ(f.residual_key(v), t.key >> 10);
  EXPECT_EQ(f.rid(v), t.rid);
}

TEST(TupleFormat, CompressibleBoundaries) {
  EXPECT_TRUE(compressible(37, 27, 0));
  EXPECT_TRUE(compressible(64, 10, 10));
  EXPECT_FALSE(compressible(64, 11, 10));
  EXPECT_FALSE(compressible(0, 64, 0));
  EXPECT_TRUE(compressible(0, 63, 0));
  EXPECT_TRUE(compressible(5, 59, 0));
  EXPECT_FALSE(compressible(6, 59, 0));
}

TEST(RadixHistogram, CountsAndBits) {
  const Tuple tuples[] = {{0, 1}, {1, 2}, {5, 4}, {9, 8}, {0xF0, 0}};
  std::uint64_t counts[4] = {0, 0, 0, 0};
  const KeyRidBits bits = radix_histogram(tuples, 5, 3, counts);
  EXPECT_EQ(counts[0], 2u);
  EXPECT_EQ(counts[1], 3u);
  EXPECT_EQ(counts[2], 0u);
  EXPECT_EQ(counts[3], 0u);
  EXPECT_EQ(bits.key_or, 0xFDu);
  EXPECT_EQ(bits.rid_or, 15u);
}

TEST(RadixHistogram, MatchesPlainCountingAtEveryLength) {
  std::mt19937_64 random(7);
  for (std::size_t n : {0, 1, 7, 8, 9, 15, 16, 17, 31, 1000, 4099}) {
    std::vector<Tuple> tuples(n);
    for (Tuple& t : tuples) t = {random(), random() >> 1};
    for (const std::uint64_t mask : {0ull, 1ull, 0x3Full, 0x7FFull}) {
      std::vector<std::uint64_t> counts(mask + 1, 1), expected(mask + 1, 1);  // adds to what is there
      std::uint64_t key_or = 0, rid_or = 0;
      for (const Tuple& t : tuples) {
        ++expected[t.key & mask];
        key_or |= t.key;
        rid_or |= t.rid;
      }
      const KeyRidBits bits = radix_histogram(tuples.data(), n, mask, counts.data());
      EXPECT_EQ(counts, expected) << n << " tuples, mask " << mask;
      EXPECT_EQ(bits.key_or, key_or);
      EXPECT_EQ(bits.rid_or, rid_or);
    }
  }
}

TEST(RadixHistogram, WideFanOutsCountAsThePlainKernel) {
  std::mt19937_64 random(11);
  std::vector<std::uint32_t> scratch;
  for (std::size_t n : {0, 1, 7, 8, 9, 1000, 70001}) {
    std::vector<Tuple> tuples(n);
    for (Tuple& t : tuples) t = {random() >> (n % 3 == 0 ? 50 : 0), random() >> 1};  // duplicates for some n
    for (const std::uint64_t mask : {0ull, 0xFFFull, 0x3FFFull, 0xFFFFull}) {
      std::vector<std::uint64_t> wide(mask + 1, 2), plain(mask + 1, 2);  // both add to what is there
      const KeyRidBits got = radix_histogram_wide(tuples.data(), n, mask, wide.data(), scratch);
      const KeyRidBits want = radix_histogram(tuples.data(), n, mask, plain.data());
      EXPECT_EQ(wide, plain) << n << " tuples, mask " << mask;
      EXPECT_EQ(got.key_or, want.key_or);
      EXPECT_EQ(got.rid_or, want.rid_or);
    }
  }
}

}  // namespace
}  // namespace hpcdb
