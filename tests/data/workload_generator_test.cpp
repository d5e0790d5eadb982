#include "hpcdb/data/workload_generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/worker_team.hpp"

namespace hpcdb {
namespace {

WorkloadSpec spec_of(std::uint64_t inner, std::uint64_t outer, double theta = 0.0, double selectivity = 1.0,
                     std::uint64_t seed = 1) {
  WorkloadSpec spec;
  spec.inner_tuples = inner;
  spec.outer_tuples = outer;
  spec.zipf_theta = theta;
  spec.selectivity = selectivity;
  spec.seed = seed;
  return spec;
}

std::vector<Tuple> inner_of(const WorkloadSpec& spec) {
  std::vector<Tuple> out(spec.inner_tuples);
  generate_inner(spec, 0, out.size(), out.data());
  return out;
}

std::vector<Tuple> outer_of(const WorkloadSpec& spec) {
  std::vector<Tuple> out(spec.outer_tuples);
  generate_outer(spec, 0, out.size(), out.data());
  return out;
}

std::uint64_t matching(const WorkloadSpec& spec, const std::vector<Tuple>& outer) {
  return static_cast<std::uint64_t>(
      std::count_if(outer.begin(), outer.end(), [&](const Tuple& t) { return t.key < spec.inner_tuples; }));
}

TEST(WorkloadGenerator, ValidateRejectsBadSpecs) {
  EXPECT_NO_THROW(validate(spec_of(10, 10, 0.0, 0.0)));
  EXPECT_NO_THROW(validate(spec_of(10, 10, 1.2, 1.0)));
  EXPECT_THROW(validate(spec_of(10, 10, 0.0, -0.01)), UsageError);
  EXPECT_THROW(validate(spec_of(10, 10, 0.0, 1.01)), UsageError);
  EXPECT_THROW(validate(spec_of(10, 10, 0.0, std::numeric_limits<double>::quiet_NaN())), UsageError);
  EXPECT_THROW(validate(spec_of(10, 10, -1.0)), UsageError);
  EXPECT_THROW(validate(spec_of(10, 10, std::numeric_limits<double>::quiet_NaN())), UsageError);
  EXPECT_THROW(validate(spec_of(10, 10, std::numeric_limits<double>::infinity())), UsageError);
  EXPECT_THROW(validate(spec_of(std::numeric_limits<std::uint64_t>::max(), 1)), UsageError);
  Tuple t{};
  EXPECT_THROW(generate_outer(spec_of(10, 10, 0.0, 2.0), 0, 1, &t), UsageError);
}

TEST(WorkloadGenerator, ExpectedMatches) {
  EXPECT_EQ(expected_matches(spec_of(100, 1000, 0.0, 1.0)), 1000u);
  EXPECT_EQ(expected_matches(spec_of(100, 1000, 0.0, 0.25)), 250u);
  EXPECT_EQ(expected_matches(spec_of(100, 1000, 0.0, 0.0)), 0u);
  EXPECT_EQ(expected_matches(spec_of(100, 10, 0.0, 0.25)), 3u);  // 2.5 rounds away from zero
  EXPECT_EQ(expected_matches(spec_of(0, 1000, 0.0, 1.0)), 0u);
  EXPECT_EQ(expected_matches(spec_of(100, 0, 0.0, 1.0)), 0u);
}

TEST(WorkloadGenerator, InnerKeysAreAShuffleOfTheRange) {
  for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 1000ULL, 100003ULL}) {
    const auto spec = spec_of(n, 0, 0.0, 1.0, 77);
    const auto inner = inner_of(spec);
    std::vector<bool> seen(n, false);
    std::uint64_t in_place = 0;
    for (std::uint64_t g = 0; g < n; ++g) {
      ASSERT_EQ(inner[g].rid, g);
      ASSERT_LT(inner[g].key, n);
      ASSERT_FALSE(seen[inner[g].key]) << "key " << inner[g].key << " twice";
      seen[inner[g].key] = true;
      in_place += inner[g].key == g;
    }
    if (n >= 1000) {
      EXPECT_LT(in_place, 10u) << "keys are not shuffled";
    }
  }
}

TEST(WorkloadGenerator, SeedChangesTheData) {
  EXPECT_NE(inner_of(spec_of(1000, 0, 0.0, 1.0, 1)), inner_of(spec_of(1000, 0, 0.0, 1.0, 2)));
  EXPECT_NE(outer_of(spec_of(1000, 5000, 1.0, 1.0, 1)), outer_of(spec_of(1000, 5000, 1.0, 1.0, 2)));
  EXPECT_NE(outer_of(spec_of(1000, 5000, 0.0, 0.5, 1)), outer_of(spec_of(1000, 5000, 0.0, 0.5, 2)));
}

// Generates the relation in `parts` ranges, some of them empty.
std::vector<Tuple> generate_split(const WorkloadSpec& spec, bool outer, std::size_t parts) {
  const std::uint64_t n = outer ? spec.outer_tuples : spec.inner_tuples;
  std::vector<Tuple> all(n);
  for (std::size_t p = 0; p < parts; ++p) {
    const std::uint64_t a = split_point(n, parts, p), b = split_point(n, parts, p + 1);
    if (outer) {
      generate_outer(spec, a, b - a, all.data() + a);
    } else {
      generate_inner(spec, a, b - a, all.data() + a);
    }
  }
  return all;
}

TEST(WorkloadGenerator, OutputDoesNotDependOnTheSplit) {
  for (double theta : {0.0, 0.7, 1.2}) {
    const auto spec = spec_of(10007, 40009, theta, 0.6, 5);
    const auto inner = inner_of(spec);
    const auto outer = outer_of(spec);
    for (std::size_t parts : {2u, 3u, 16u, 1000u, 50000u}) {
      EXPECT_EQ(generate_split(spec, false, parts), inner) << "theta " << theta << ", " << parts << " parts";
      EXPECT_EQ(generate_split(spec, true, parts), outer) << "theta " << theta << ", " << parts << " parts";
    }
    // Tuple by tuple, from the end.
    std::vector<Tuple> one_by_one(outer.size());
    for (std::uint64_t j = outer.size(); j-- > 0;) generate_outer(spec, j, 1, &one_by_one[j]);
    EXPECT_EQ(one_by_one, outer);
  }
}

TEST(WorkloadGenerator, RangeBeyondTheRelationIsRejected) {
  const auto spec = spec_of(10, 20);
  std::vector<Tuple> out(30);
  EXPECT_THROW(generate_inner(spec, 5, 6, out.data()), UsageError);
  EXPECT_THROW(generate_outer(spec, 21, 0, out.data()), UsageError);
  EXPECT_THROW(generate_outer(spec, 1, std::numeric_limits<std::uint64_t>::max(), out.data()), UsageError);
  EXPECT_NO_THROW(generate_outer(spec, 20, 0, out.data()));
}

struct MatchCase {
  double selectivity;
  double theta;
  friend std::ostream& operator<<(std::ostream& out, const MatchCase& c) {
    return out << "selectivity = " << c.selectivity << ", theta = " << c.theta;
  }
};

class OuterMatches : public ::testing::TestWithParam<MatchCase> {};

TEST_P(OuterMatches, ExactlyExpectedMatchesFindAnInnerKey) {
  const auto [selectivity, theta] = GetParam();
  const auto spec = spec_of(12345, 100000, theta, selectivity, 3);
  const auto outer = outer_of(spec);
  const std::uint64_t m = expected_matches(spec);
  EXPECT_EQ(m, static_cast<std::uint64_t>(std::llround(selectivity * 100000)));
  EXPECT_EQ(matching(spec, outer), m);
  std::vector<bool> miss_key_seen(spec.outer_tuples, false);
  for (std::uint64_t j = 0; j < outer.size(); ++j) {
    ASSERT_EQ(outer[j].rid, j);
    if (outer[j].key >= spec.inner_tuples) {
      // Misses are |R| + s for distinct slots s >= m.
      const std::uint64_t s = outer[j].key - spec.inner_tuples;
      ASSERT_GE(s, m);
      ASSERT_LT(s, spec.outer_tuples);
      ASSERT_FALSE(miss_key_seen[s]);
      miss_key_seen[s] = true;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, OuterMatches,
                         ::testing::Values(MatchCase{1.0, 0.0}, MatchCase{0.25, 0.0}, MatchCase{0.0, 0.0},
                                           MatchCase{1.0, 1.2}, MatchCase{0.25, 1.2}, MatchCase{0.0, 1.2},
                                           MatchCase{0.5, 1.0}));

TEST(WorkloadGenerator, UniformKeysHitEachInnerKeyEvenly) {
  for (double selectivity : {1.0, 0.9, 0.3}) {
    const auto spec = spec_of(1000, 8000, 0.0, selectivity, 9);
    const auto outer = outer_of(spec);
    const std::uint64_t m = expected_matches(spec);
    std::vector<std::uint64_t> hits(spec.inner_tuples, 0);
    for (const auto& t : outer)
      if (t.key < spec.inner_tuples) ++hits[t.key];
    const std::uint64_t low = m / spec.inner_tuples;
    const std::uint64_t high = (m + spec.inner_tuples - 1) / spec.inner_tuples;
    for (std::uint64_t k = 0; k < spec.inner_tuples; ++k) {
      ASSERT_GE(hits[k], low) << "key " << k << ", selectivity " << selectivity;
      ASSERT_LE(hits[k], high) << "key " << k << ", selectivity " << selectivity;
    }
  }
}

TEST(WorkloadGenerator, ZipfKeysFavourSmallKeys) {
  const auto spec = spec_of(1000, 200000, 1.2, 1.0, 4);
  const auto outer = outer_of(spec);
  std::vector<std::uint64_t> hits(spec.inner_tuples, 0);
  for (const auto& t : outer) ++hits.at(t.key);
  for (int k = 0; k < 5; ++k) EXPECT_GT(hits[k], hits[k + 1]) << "key " << k;
  // P(key 0) = 1 / sum_{r<=1000} r^-1.2, about 0.2306.
  EXPECT_NEAR(static_cast<double>(hits[0]) / 200000.0, 0.2306, 0.006);
}

TEST(WorkloadGenerator, EmptyInnerRelation) {
  for (double theta : {0.0, 1.2}) {
    const auto spec = spec_of(0, 1000, theta, 1.0);
    EXPECT_TRUE(inner_of(spec).empty());
    EXPECT_EQ(expected_matches(spec), 0u);
    const auto outer = outer_of(spec);
    std::vector<bool> seen(1000, false);
    for (const auto& t : outer) {
      ASSERT_LT(t.key, 1000u);  // |R| + s with |R| = 0
      ASSERT_FALSE(seen[t.key]);
      seen[t.key] = true;
    }
  }
}

TEST(WorkloadGenerator, EmptyOuterRelation) {
  const auto spec = spec_of(100, 0, 1.2, 1.0);
  EXPECT_TRUE(outer_of(spec).empty());
  EXPECT_EQ(inner_of(spec).size(), 100u);
}

}  // namespace
}  // namespace hpcdb

namespace hpcdb {
namespace {

TEST(WorkloadGeneratorDistributions, GaussianKeysClusterAroundTheMiddle) {
  WorkloadSpec spec;
  spec.inner_tuples = 10000;
  spec.outer_tuples = 200000;
  spec.selectivity = 0.75;
  spec.gaussian_sigma = 0.1;
  spec.seed = 5;
  std::vector<Tuple> outer(spec.outer_tuples);
  generate_outer(spec, 0, outer.size(), outer.data());
  std::uint64_t matched = 0, within_one_sigma = 0;
  double sum = 0;
  for (const Tuple& t : outer) {
    if (t.key >= spec.inner_tuples) continue;
    ++matched;
    sum += static_cast<double>(t.key);
    within_one_sigma += t.key >= 4000 && t.key < 6000;
  }
  EXPECT_EQ(matched, expected_matches(spec));
  EXPECT_NEAR(sum / static_cast<double>(matched), 5000.0, 30.0);
  // About 68.3% of a normal distribution lies within one deviation.
  EXPECT_NEAR(static_cast<double>(within_one_sigma) / static_cast<double>(matched), 0.683, 0.01);
  // The same tuples whatever the split.
  std::vector<Tuple> piece(1000);
  generate_outer(spec, 12345, piece.size(), piece.data());
  for (std::size_t i = 0; i < piece.size(); ++i) ASSERT_EQ(piece[i], outer[12345 + i]);
}

TEST(WorkloadGeneratorDistributions, SpacedKeysAreAllCongruentAndKeepTheMatches) {
  WorkloadSpec plain;
  plain.inner_tuples = 3000;
  plain.outer_tuples = 5000;
  plain.selectivity = 0.5;
  plain.seed = 8;
  WorkloadSpec spaced = plain;
  spaced.key_spacing_bits = 8;
  std::vector<Tuple> inner(3000), outer(5000), inner_plain(3000), outer_plain(5000);
  generate_inner(spaced, 0, 3000, inner.data());
  generate_outer(spaced, 0, 5000, outer.data());
  generate_inner(plain, 0, 3000, inner_plain.data());
  generate_outer(plain, 0, 5000, outer_plain.data());
  for (std::size_t i = 0; i < 3000; ++i) {
    ASSERT_EQ(inner[i].key % 256, 0u);
    ASSERT_EQ(inner[i].key, inner_plain[i].key << 8);
  }
  for (std::size_t i = 0; i < 5000; ++i) ASSERT_EQ(outer[i].key, outer_plain[i].key << 8);
}

TEST(WorkloadGeneratorDistributions, RefusesMixedOrOutOfRangeSettings) {
  WorkloadSpec spec;
  spec.inner_tuples = 10;
  spec.outer_tuples = 10;
  spec.gaussian_sigma = 0.1;
  spec.zipf_theta = 1.0;
  EXPECT_THROW(validate(spec), UsageError);
  spec.zipf_theta = 0.0;
  spec.gaussian_sigma = std::numeric_limits<double>::infinity();
  EXPECT_THROW(validate(spec), UsageError);
  spec.gaussian_sigma = -0.5;
  EXPECT_THROW(validate(spec), UsageError);
  spec.gaussian_sigma = 0.0;
  spec.key_spacing_bits = 33;
  EXPECT_THROW(validate(spec), UsageError);
  spec.key_spacing_bits = 8;
  spec.inner_tuples = (std::uint64_t{1} << 56) - 5;
  EXPECT_THROW(validate(spec), UsageError);
  spec.inner_tuples = (std::uint64_t{1} << 56) - 11;
  EXPECT_NO_THROW(validate(spec));
}

}  // namespace
}  // namespace hpcdb
