#include "hpcdb/core/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <random>

namespace hpcdb {
namespace {

TEST(LatencyHistogram, QuantilesWithinThreePercent) {
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 100000; ++v) h.add(v);
  EXPECT_EQ(h.count(), 100000u);
  EXPECT_NEAR(h.mean(), 50000.5, 1e-6);
  EXPECT_NEAR(h.quantile(0.5), 50000, 50000 * 0.03);
  EXPECT_NEAR(h.quantile(0.99), 99000, 99000 * 0.03);
  EXPECT_NEAR(h.quantile(0.0), 1, 1);
}

TEST(LatencyHistogram, SmallAndHugeValues) {
  LatencyHistogram h;
  EXPECT_EQ(h.quantile(0.5), 0);  // empty
  for (std::uint64_t v = 0; v < 32; ++v) EXPECT_EQ(LatencyHistogram::bucket_of(v), static_cast<int>(v));
  EXPECT_LT(LatencyHistogram::bucket_of(UINT64_MAX), LatencyHistogram::kBuckets);
  for (std::uint64_t v = 32; v < 1u << 20; v = v * 3 / 2 + 1) {
    const double mid = LatencyHistogram::value_of(LatencyHistogram::bucket_of(v));
    EXPECT_NEAR(mid, static_cast<double>(v), static_cast<double>(v) * 0.035) << v;
  }
  h.add(UINT64_MAX);
  EXPECT_GT(h.quantile(1.0), 1e18);
}

TEST(LatencyHistogram, MergeAndWordsAgree) {
  std::mt19937_64 rng(3);
  LatencyHistogram a, b, both;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t v = rng() % 100000;
    (i % 2 ? a : b).add(v);
    both.add(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), both.count());
  EXPECT_EQ(a.quantile(0.9), both.quantile(0.9));
  const LatencyHistogram c = LatencyHistogram::from_words(both.to_words());
  EXPECT_EQ(c.count(), both.count());
  EXPECT_EQ(c.mean(), both.mean());
  EXPECT_EQ(c.quantile(0.5), both.quantile(0.5));
}

}  // namespace
}  // namespace hpcdb
