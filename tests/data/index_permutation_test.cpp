#include "hpcdb/data/index_permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hpcdb {
namespace {

std::vector<std::uint64_t> images(const IndexPermutation& p) {
  std::vector<std::uint64_t> out(p.size());
  for (std::uint64_t i = 0; i < p.size(); ++i) out[i] = p(i);
  return out;
}

class IndexPermutationBijection : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(IndexPermutationBijection, IsABijectionOfTheRange) {
  const std::uint64_t n = GetParam();
  for (std::uint64_t seed : {1ULL, 2ULL, 0xDEADBEEFULL}) {
    const IndexPermutation p(n, seed);
    ASSERT_EQ(p.size(), n);
    std::vector<bool> seen(n, false);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t image = p(i);
      ASSERT_LT(image, n) << "i = " << i << ", seed " << seed;
      ASSERT_FALSE(seen[image]) << "value " << image << " taken twice, seed " << seed;
      seen[image] = true;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, IndexPermutationBijection,
                         ::testing::Values(0, 1, 2, 3, 7, 1000, 65536, 100003));

TEST(IndexPermutation, IsDeterministic) {
  EXPECT_EQ(images(IndexPermutation(5000, 17)), images(IndexPermutation(5000, 17)));
}

TEST(IndexPermutation, SeedChoosesThePermutation) {
  EXPECT_NE(images(IndexPermutation(1000, 1)), images(IndexPermutation(1000, 2)));
  // Small domains still get more than one arrangement.
  std::vector<std::vector<std::uint64_t>> distinct;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    auto order = images(IndexPermutation(3, seed));
    if (std::find(distinct.begin(), distinct.end(), order) == distinct.end()) distinct.push_back(order);
  }
  EXPECT_EQ(distinct.size(), 6u);
}

TEST(IndexPermutation, ScramblesTheOrder) {
  const std::uint64_t n = 100003;
  const IndexPermutation p(n, 99);
  int fixed_points = 0;
  int consecutive = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    fixed_points += p(i) == i;
    if (i + 1 < n) consecutive += p(i + 1) == p(i) + 1;
  }
  // A random permutation has one fixed point and one ascent by one on average.
  EXPECT_LT(fixed_points, 10);
  EXPECT_LT(consecutive, 10);
  // Any prefix of the indices maps evenly over the range.
  std::vector<int> quarters(4, 0);
  for (std::uint64_t i = 0; i < n / 10; ++i) ++quarters[p(i) * 4 / n];
  for (int q : quarters) EXPECT_NEAR(q, n / 40.0, 300);
}

class IndexPermutationLarge : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(IndexPermutationLarge, StaysInRangeAndInjectiveOnASample) {
  const std::uint64_t n = GetParam();
  const IndexPermutation p(n, 5);
  std::vector<std::uint64_t> out;
  constexpr std::uint64_t kSample = 200000;
  const std::uint64_t stride = n / kSample;
  double mean = 0;
  for (std::uint64_t k = 0; k < kSample; ++k) {
    // Both a contiguous run and indices spread over the whole range.
    const std::uint64_t i = k % 2 == 0 ? k / 2 : (k / 2) * stride + 12345;
    const std::uint64_t image = p(i);
    ASSERT_LT(image, n);
    out.push_back(image);
    mean += static_cast<double>(image) / static_cast<double>(n);
  }
  mean /= kSample;
  EXPECT_NEAR(mean, 0.5, 0.01);
  std::vector<std::uint64_t> inputs;
  for (std::uint64_t k = 0; k < kSample; ++k) inputs.push_back(k % 2 == 0 ? k / 2 : (k / 2) * stride + 12345);
  std::sort(inputs.begin(), inputs.end());
  const auto distinct_inputs = std::unique(inputs.begin(), inputs.end()) - inputs.begin();
  std::sort(out.begin(), out.end());
  const auto distinct_outputs = std::unique(out.begin(), out.end()) - out.begin();
  EXPECT_EQ(distinct_outputs, distinct_inputs);
  EXPECT_LT(p(n - 1), n);
}

INSTANTIATE_TEST_SUITE_P(Sizes, IndexPermutationLarge,
                         ::testing::Values((1ULL << 33) + 5, (1ULL << 40) - 1, 1ULL << 40, 1000000007ULL));

}  // namespace
}  // namespace hpcdb
