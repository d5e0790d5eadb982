#include "hpcdb/data/zipf_sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Prefix sums sum_{r=1}^{b} r^-theta: exact up to 10^5 terms, beyond with
// the Euler-Maclaurin formula, whose truncation error is far below 1e-12 there.
class ZipfPrefixSums {
 public:
  explicit ZipfPrefixSums(double theta) : q_(theta), exact_(kExact + 1, 0.0L) {
    for (std::uint64_t r = 1; r <= kExact; ++r) exact_[r] = exact_[r - 1] + std::pow(static_cast<long double>(r), -q_);
  }

  long double operator()(std::uint64_t b) const {
    if (b <= kExact) return exact_[b];
    const long double m = kExact + 1, x = static_cast<long double>(b);
    const auto f = [&](long double t) { return std::pow(t, -q_); };
    const auto f1 = [&](long double t) { return -q_ * std::pow(t, -q_ - 1); };
    const auto f3 = [&](long double t) { return -q_ * (q_ + 1) * (q_ + 2) * std::pow(t, -q_ - 3); };
    const long double integral =
        std::fabs(q_ - 1) < 1e-15L ? std::log(x / m) : (std::pow(x, 1 - q_) - std::pow(m, 1 - q_)) / (1 - q_);
    return exact_[kExact] + integral + (f(m) + f(x)) / 2 + (f1(x) - f1(m)) / 12 - (f3(x) - f3(m)) / 720;
  }

 private:
  static constexpr std::uint64_t kExact = 100000;
  long double q_;
  std::vector<long double> exact_;
};

std::string cell_name(const char* what, std::uint64_t begin, std::uint64_t end) {
  std::string name(what);
  name.append(" [").append(std::to_string(begin)).append(", ").append(std::to_string(end)).append(")");
  return name;
}

TEST(ZipfSampler, RejectsBadParameters) {
  EXPECT_THROW(ZipfSampler(0, 1.0), UsageError);
  EXPECT_THROW(ZipfSampler(10, 0.0), UsageError);
  EXPECT_THROW(ZipfSampler(10, -0.5), UsageError);
  EXPECT_THROW(ZipfSampler(10, std::numeric_limits<double>::quiet_NaN()), UsageError);
  EXPECT_THROW(ZipfSampler(10, std::numeric_limits<double>::infinity()), UsageError);
  EXPECT_NO_THROW(ZipfSampler(1, 1e-6));
}

TEST(ZipfSampler, SingleKeyAlwaysGivesRankZero) {
  const ZipfSampler zipf(1, 1.2);
  CounterRng rng(1, 2, 3);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(zipf.sample(rng), 0u);
}

TEST(ZipfSampler, SamplesStayInRange) {
  for (std::uint64_t n : {2ULL, 3ULL, 10ULL, 1ULL << 40}) {
    for (double theta : {0.01, 0.5, 1.0, 2.0, 8.0}) {
      const ZipfSampler zipf(n, theta);
      CounterRng rng(n, static_cast<std::uint64_t>(theta * 100), 0);
      for (int i = 0; i < 20000; ++i) ASSERT_LT(zipf.sample(rng), n) << "n " << n << " theta " << theta;
    }
  }
}

TEST(ZipfSampler, TwoKeysFollowTheRatio) {
  // P(0) / P(1) = 2^theta.
  const ZipfSampler zipf(2, 1.5);
  CounterRng rng(11, 0, 0);
  constexpr int kDraws = 1000000;
  int zeros = 0;
  for (int i = 0; i < kDraws; ++i) zeros += zipf.sample(rng) == 0;
  const double expected = std::pow(2.0, 1.5) / (std::pow(2.0, 1.5) + 1.0);
  EXPECT_NEAR(static_cast<double>(zeros) / kDraws, expected, 0.003);
}

TEST(ZipfSampler, SameRandomStreamGivesSameRanks) {
  const ZipfSampler zipf(1000000, 0.9);
  for (std::uint64_t j = 0; j < 1000; ++j) {
    CounterRng a(3, 4, j), b(3, 4, j);
    ASSERT_EQ(zipf.sample(a), zipf.sample(b));
  }
}

struct FrequencyCase {
  std::uint64_t n;
  double theta;
  friend std::ostream& operator<<(std::ostream& out, const FrequencyCase& c) {
    return out << "n = " << c.n << ", theta = " << c.theta;
  }
};

class ZipfFrequencies : public ::testing::TestWithParam<FrequencyCase> {};

// Compares observed with exact frequencies of single first ranks, of decades
// of ranks and of prefixes [0, 10^d), wherever the expected count is large
// enough (>= 20000). The tolerance is 5 standard deviations of the count,
// at most 3.5 % of it; a sampler without the rejection step, whose ranks
// >= 1 are up to 3 % too frequent, fails.
TEST_P(ZipfFrequencies, MatchTheory) {
  const auto [n, theta] = GetParam();
  constexpr std::uint64_t kDraws = 8000000;
  constexpr double kMinExpected = 20000;

  const ZipfSampler zipf(n, theta);
  std::vector<std::uint64_t> first_ranks(10, 0);
  // decades[d] counts the 1-based ranks r in [10^d, 10^(d+1)).
  std::vector<std::uint64_t> decades(20, 0);
  for (std::uint64_t j = 0; j < kDraws; ++j) {
    CounterRng rng(2024, 7, j);
    const std::uint64_t k = zipf.sample(rng);
    ASSERT_LT(k, n);
    if (k < 10) ++first_ranks[k];
    std::size_t d = 0;
    for (std::uint64_t power = 10; d < 19 && k + 1 >= power; power *= 10) ++d;
    ++decades[d];
  }

  const ZipfPrefixSums zipf_prefix_sum(theta);
  const long double total = zipf_prefix_sum(n);
  int checked = 0;
  auto check = [&](const std::string& what, long double probability, std::uint64_t observed) {
    const double expected = static_cast<double>(probability * kDraws);
    if (expected < kMinExpected) return;
    ++checked;
    EXPECT_NEAR(static_cast<double>(observed), expected, 5.0 * std::sqrt(expected))
        << what << ": observed " << observed << ", expected " << expected;
  };
  for (std::uint64_t k = 0; k < 10 && k < n; ++k) {
    const long double weight = std::pow(static_cast<long double>(k + 1), -static_cast<long double>(theta));
    check(cell_name("rank", k, k + 1), weight / total, first_ranks[k]);
  }
  std::uint64_t below = 0;
  for (std::size_t d = 0; d < decades.size(); ++d) {
    const std::uint64_t lo = static_cast<std::uint64_t>(std::pow(10.0L, d));  // 1-based ranks [lo, hi]
    if (lo > n) break;
    const std::uint64_t hi = std::min<std::uint64_t>(n, lo * 10 - 1);
    const long double in_decade = zipf_prefix_sum(hi) - (lo > 1 ? zipf_prefix_sum(lo - 1) : 0.0L);
    check(cell_name("ranks", lo - 1, hi), in_decade / total, decades[d]);
    below += decades[d];
    if (lo > 1 && hi < n) check(cell_name("ranks", 0, hi), zipf_prefix_sum(hi) / total, below);
  }
  EXPECT_GE(checked, 4) << "too few cells with enough samples to test anything";
}

INSTANTIATE_TEST_SUITE_P(Exponents, ZipfFrequencies,
                         ::testing::Values(FrequencyCase{1000, 0.5}, FrequencyCase{1000, 1.0},
                                           FrequencyCase{1000, 1.05}, FrequencyCase{1000, 1.2},
                                           FrequencyCase{1000000000, 0.5}, FrequencyCase{1000000000, 1.0},
                                           FrequencyCase{1000000000, 1.05}, FrequencyCase{1000000000, 1.2}),
                         [](const ::testing::TestParamInfo<FrequencyCase>& info) {
                           std::string name("n");
                           name.append(std::to_string(info.param.n)).append("_theta");
                           name.append(std::to_string(std::lround(info.param.theta * 100)));
                           return name;
                         });

}  // namespace
}  // namespace hpcdb
