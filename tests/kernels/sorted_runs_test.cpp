#include "hpcdb/kernels/sorted_runs.hpp"

#include <gtest/gtest.h>
#include <xmmintrin.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace hpcdb {
namespace {

// The AVX2 path compares values below 2^62 as doubles (denormal below 2^52)
// and others as biased signed integers: shapes on both sides of the line.
enum class RunShape { random, sorted, reversed, all_equal, few_distinct, top_bit, largest, compressed, below_2_62, crossing_2_62 };

std::vector<std::uint64_t> make_input(RunShape shape, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng();
  switch (shape) {
    case RunShape::random: break;
    case RunShape::sorted: std::sort(v.begin(), v.end()); break;
    case RunShape::reversed: std::sort(v.rbegin(), v.rend()); break;
    case RunShape::all_equal: std::fill(v.begin(), v.end(), 42); break;
    case RunShape::few_distinct: for (auto& x : v) x %= 3; break;
    case RunShape::top_bit: for (auto& x : v) x = (x % 5) | (x & 1 ? 0x8000000000000000ULL : 0); break;
    case RunShape::largest: for (auto& x : v) x = x % 3 == 0 ? ~0ULL : x; break;  // ties with the merge's padding
    case RunShape::compressed: for (auto& x : v) x >>= 14; break;
    case RunShape::below_2_62: for (auto& x : v) x = x % 3 == 0 ? (1ULL << 62) - 1 : x >> (2 + x % 40); break;
    case RunShape::crossing_2_62:  // 2^62, and bit patterns of infinity and NaNs (top bit clear)
      for (auto& x : v) x = x % 7 == 0 ? 1ULL << 62 : x % 7 == 1 ? 0x7FF0000000000000ULL + (x & 0xFF) : x >> (3 + x % 40);
      break;
  }
  return v;
}

class SortRunTest : public ::testing::TestWithParam<std::tuple<SortPath, RunShape>> {};

TEST_P(SortRunTest, SortsEveryLength) {
  const auto [path, shape] = GetParam();
  if (path == SortPath::avx2 && default_sort_path() != SortPath::avx2) GTEST_SKIP() << "no AVX2 on this CPU";
  const std::size_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 127, 100, 1000, 4097, 16383, 16384, 16385};
  for (std::size_t n : lengths) {
    std::vector<std::uint64_t> in = make_input(shape, n, n);
    std::vector<std::uint64_t> expected = in;
    std::sort(expected.begin(), expected.end());
    std::vector<std::uint64_t> out(n + 1, 7), scratch(n + 1);
    sort_run(in.data(), n, out.data(), scratch.data(), path);
    out.pop_back();
    ASSERT_EQ(out, expected) << "n = " << n;
    // In place (out == in) as well.
    std::vector<std::uint64_t> again = make_input(shape, n, n);
    sort_run(again.data(), n, again.data(), scratch.data(), path);
    ASSERT_EQ(again, expected) << "in place, n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(PathsAndShapes, SortRunTest,
                         ::testing::Combine(::testing::Values(SortPath::scalar, SortPath::avx2),
                                            ::testing::Values(RunShape::random, RunShape::sorted, RunShape::reversed,
                                                              RunShape::all_equal, RunShape::few_distinct, RunShape::top_bit,
                                                              RunShape::largest, RunShape::compressed, RunShape::below_2_62,
                                                              RunShape::crossing_2_62)));

// With denormals read as zero (as -ffast-math code may set), values below
// 2^52 would all compare equal as doubles: the sort must notice and still
// order them.
TEST(SortRun, DenormalsAreZeroModeStillSorts) {
  if (default_sort_path() != SortPath::avx2) GTEST_SKIP() << "no AVX2 on this CPU";
  const std::size_t n = 4097;
  std::vector<std::uint64_t> in = make_input(RunShape::compressed, n, 5), expected = in, out(n), scratch(n);
  std::sort(expected.begin(), expected.end());
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x40);  // DAZ
  sort_run(in.data(), n, out.data(), scratch.data(), SortPath::avx2);
  std::vector<std::uint64_t> merged(2 * n);
  merge_two(out.data(), n, expected.data(), n, merged.data(), SortPath::avx2);
  _mm_setcsr(saved);
  EXPECT_EQ(out, expected);
  EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end()));
}

TEST(MergeTwo, MergesAnyLengthsOnBothPaths) {
  for (SortPath path : {SortPath::scalar, SortPath::avx2}) {
    if (path == SortPath::avx2 && default_sort_path() != SortPath::avx2) continue;
    for (std::size_t na : {0u, 1u, 3u, 4u, 5u, 9u, 15u, 16u, 17u, 33u, 64u, 1001u}) {
      for (std::size_t nb : {0u, 2u, 4u, 7u, 8u, 16u, 31u, 48u, 333u}) {
        for (std::uint64_t modulo : {3ULL, 1000000ULL, 1ULL << 62, 1ULL << 63}) {
          std::vector<std::uint64_t> a = make_input(RunShape::random, na, na * 31 + nb), b = make_input(RunShape::random, nb, nb);
          for (auto& x : a) x %= modulo;
          for (auto& x : b) x %= modulo;
          std::sort(a.begin(), a.end());
          std::sort(b.begin(), b.end());
          std::vector<std::uint64_t> expected(a);
          expected.insert(expected.end(), b.begin(), b.end());
          std::sort(expected.begin(), expected.end());
          std::vector<std::uint64_t> out(na + nb);
          merge_two(a.data(), na, b.data(), nb, out.data(), path);
          ASSERT_EQ(out, expected) << na << " + " << nb;
        }
      }
    }
  }
}

// The largest value the SIMD merge can take unbiased (top bit clear) ties
// with its padding; the output must still hold exactly the inputs.
TEST(MergeTwo, LargestSimdValueTiesWithPadding) {
  const std::uint64_t top = 0x7FFFFFFFFFFFFFFFULL;
  for (std::size_t na : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 40u}) {
    std::vector<std::uint64_t> a(na, top), b = {0, 1, top, top};
    for (std::size_t k = 0; k < na / 2; ++k) a[k] = k;
    std::vector<std::uint64_t> expected(a);
    expected.insert(expected.end(), b.begin(), b.end());
    std::sort(expected.begin(), expected.end());
    std::vector<std::uint64_t> out(a.size() + b.size() + 1, 9);
    merge_two(a.data(), a.size(), b.data(), b.size(), out.data());
    EXPECT_EQ(out.back(), 9u) << "wrote past the end";
    out.pop_back();
    EXPECT_EQ(out, expected) << na;
  }
}

TEST(MergeTwo, TopBitValues) {
  std::vector<std::uint64_t> a = {1, 5, 0x8000000000000000ULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL};
  std::vector<std::uint64_t> b = {0, 2, 3, 4, 0x9000000000000000ULL};
  std::vector<std::uint64_t> out(10), expected(a);
  expected.insert(expected.end(), b.begin(), b.end());
  std::sort(expected.begin(), expected.end());
  merge_two(a.data(), a.size(), b.data(), b.size(), out.data());
  EXPECT_EQ(out, expected);
}

}  // namespace
}  // namespace hpcdb
