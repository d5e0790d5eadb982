#include "hpcdb/kernels/key_field_sort.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/bits.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace hpcdb {
namespace {

const std::size_t kLengths[] = {0,  1,  2,  3,   7,   8,   9,   15,  16,   17,   63,   64,    65,    127,
                                128, 129, 191, 192, 200, 255, 256, 257, 1000, 4096, 4097, 16383, 16384, 16385};

enum class KeyShape { random, sorted, reversed, all_equal, few_distinct, largest };

std::vector<std::uint32_t> make_u32(KeyShape shape, std::size_t n, std::uint64_t seed) {
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = rng();
  switch (shape) {
    case KeyShape::random: break;
    case KeyShape::sorted: std::sort(v.begin(), v.end()); break;
    case KeyShape::reversed: std::sort(v.rbegin(), v.rend()); break;
    case KeyShape::all_equal: std::fill(v.begin(), v.end(), 42u); break;
    case KeyShape::few_distinct: for (auto& x : v) x %= 3; break;
    case KeyShape::largest: for (auto& x : v) x = x % 3 == 0 ? 0xFFFFFFFFu : x; break;  // ties with the padding
  }
  return v;
}

bool has_avx2() { return default_sort_path() == SortPath::avx2; }

class SortU32Test : public ::testing::TestWithParam<std::tuple<SortPath, KeyShape>> {};

TEST_P(SortU32Test, SortsEveryLength) {
  const auto [path, shape] = GetParam();
  if (path == SortPath::avx2 && !has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  for (std::size_t n : kLengths) {
    std::vector<std::uint32_t> a = make_u32(shape, n, n), b(n);
    std::vector<std::uint32_t> expected = a;
    std::sort(expected.begin(), expected.end());
    const std::uint32_t* sorted = sort_u32(a.data(), b.data(), n, path);
    ASSERT_TRUE(sorted == a.data() || sorted == b.data());
    ASSERT_EQ(std::vector<std::uint32_t>(sorted, sorted + n), expected) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(PathsAndShapes, SortU32Test,
                         ::testing::Combine(::testing::Values(SortPath::scalar, SortPath::avx2),
                                            ::testing::Values(KeyShape::random, KeyShape::sorted, KeyShape::reversed,
                                                              KeyShape::all_equal, KeyShape::few_distinct, KeyShape::largest)));

// Values (key << shift | payload) with keys in [base, base + span].
std::vector<std::uint64_t> make_values(std::size_t n, unsigned shift, std::uint64_t base, std::uint64_t span,
                                       std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) {
    const std::uint64_t key = base + (span == ~0ULL ? rng() : rng() % (span + 1));
    const std::uint64_t payload = shift == 0 ? 0 : rng() & ((1ULL << shift) - 1);
    x = shift >= 64 ? payload : (key << shift) | payload;
  }
  return v;
}

// The reference: sorted by key, equal keys in input order.
std::vector<std::uint64_t> stable_by_key(std::vector<std::uint64_t> v, unsigned shift) {
  std::stable_sort(v.begin(), v.end(), [shift](std::uint64_t a, std::uint64_t b) { return (a >> shift) < (b >> shift); });
  return v;
}

class KeyFieldSortTest : public ::testing::TestWithParam<SortPath> {};

TEST_P(KeyFieldSortTest, SortsByKeyAndKeepsInputOrderOfEqualKeys) {
  const SortPath path = GetParam();
  if (path == SortPath::avx2 && !has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  struct Case {
    unsigned shift;
    std::uint64_t base, span;
  };
  // Few keys (many duplicates), a sub-range of a large key space, the
  // largest key field (shift 0) and payloads up to 63 bits.
  const Case cases[] = {{25, 1000, 3}, {25, (1ULL << 38) - 5, 40000}, {0, ~0ULL - 70000, 70000}, {40, 7, 0}, {63, 0, 1}};
  for (const Case& c : cases) {
    for (std::size_t n : kLengths) {
      const unsigned key_bits = bit_width_of(c.span);
      if (!fits_key_field_sort(key_bits, n)) continue;
      const std::vector<std::uint64_t> in = make_values(n, c.shift, c.base, c.span, n + c.shift);
      std::vector<std::uint64_t> out(n + 1, 7);
      std::vector<std::uint32_t> work(key_field_sort_work_words(n));
      ASSERT_TRUE(sort_by_key_field(in.data(), n, c.shift, c.base, key_bits, out.data(), work.data(), path));
      ASSERT_EQ(out.back(), 7u) << "wrote past the end";
      out.pop_back();
      ASSERT_EQ(out, stable_by_key(in, c.shift)) << "shift " << c.shift << ", n = " << n;
    }
  }
}

TEST_P(KeyFieldSortTest, SortsSkewedAndClusteredKeys) {
  // The AVX2 path splits a run into buckets by the top key bits and sorts
  // groups of buckets: here buckets are empty, hold one value, or hold most
  // of the run (more than one 64-value block), side by side.
  const SortPath path = GetParam();
  if (path == SortPath::avx2 && !has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  const unsigned shift = 20, key_bits = 15;
  const std::uint64_t floor = 123456;
  for (std::size_t n : {65u, 200u, 1000u, 4097u, 16384u}) {
    for (int shape = 0; shape < 4; ++shape) {
      std::mt19937_64 rng(n * 4 + static_cast<std::size_t>(shape));
      std::vector<std::uint64_t> in(n);
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t offset = 0;
        switch (shape) {
          case 0: offset = rng() % 2 == 0 ? 777 : rng() % (1u << key_bits); break;    // half on one key
          case 1: offset = (rng() % 4) * 8191 + rng() % 3; break;                       // four tight clusters
          case 2: offset = i % 97 == 0 ? (1u << key_bits) - 1 : rng() % 40; break;     // one bucket, plus the top key
          default: offset = (rng() % 2) * ((1u << key_bits) - 1); break;               // only the lowest and highest key
        }
        in[i] = ((floor + offset) << shift) | (rng() & low_mask(shift));
      }
      std::vector<std::uint64_t> out(n);
      std::vector<std::uint32_t> work(key_field_sort_work_words(n));
      ASSERT_TRUE(sort_by_key_field(in.data(), n, shift, floor, key_bits, out.data(), work.data(), path));
      ASSERT_EQ(out, stable_by_key(in, shift)) << "shape " << shape << ", n = " << n;
    }
  }
}

TEST_P(KeyFieldSortTest, RefusesKeysThatDoNotFit) {
  const SortPath path = GetParam();
  if (path == SortPath::avx2 && !has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  // 4096 values need 12 index bits: 20 key bits fit, 21 do not.
  const std::size_t n = 4096;
  const std::uint64_t floor = 5;
  std::vector<std::uint64_t> in = make_values(n, 8, floor, (1ULL << 20) - 1, 1);
  in[16] = floor << 8;
  in[17] = (floor + (1ULL << 20) - 1) << 8;  // the highest key that fits
  std::vector<std::uint64_t> out(n, 7);
  std::vector<std::uint32_t> work(key_field_sort_work_words(n));
  EXPECT_TRUE(fits_key_field_sort(20, n));
  EXPECT_FALSE(fits_key_field_sort(21, n));
  EXPECT_FALSE(sort_by_key_field(in.data(), n, 8, floor, 21, out.data(), work.data(), path));
  ASSERT_TRUE(sort_by_key_field(in.data(), n, 8, floor, 20, out.data(), work.data(), path));
  EXPECT_EQ(out, stable_by_key(in, 8));

  auto refused = [&](const char* what) {
    std::fill(out.begin(), out.end(), 7);
    EXPECT_FALSE(sort_by_key_field(in.data(), n, 8, floor, 20, out.data(), work.data(), path)) << what;
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint64_t v) { return v == 7; })) << what << ": wrote output";
  };
  in[18] = (floor + (1ULL << 20)) << 8;
  refused("a key above the field");
  in[18] = in[17];
  in[19] = (floor - 1) << 8;
  refused("a key below the floor");
  in[19] = in[17];
  EXPECT_TRUE(sort_by_key_field(in.data(), n, 8, floor, 20, out.data(), work.data(), path));
}

INSTANTIATE_TEST_SUITE_P(Paths, KeyFieldSortTest, ::testing::Values(SortPath::scalar, SortPath::avx2));

}  // namespace
}  // namespace hpcdb
