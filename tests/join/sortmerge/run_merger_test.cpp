// The sort-merge join's merge levels: the runs of every segment merged in
// groups of fan_in through key-cut pieces, until one run per segment is
// left, against the multiset of the input.
#include "hpcdb/join/sortmerge/run_merger.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "hpcdb/kernels/sort_formats.hpp"

namespace hpcdb {
namespace {

// run_sizes[segment]: the sizes of its runs, in memory order.
using Layout = std::vector<std::vector<std::size_t>>;

template <class Format>
void check_merge(const Format& format, const Layout& layout, std::uint64_t distinct_keys, std::size_t fan_in,
                 unsigned threads) {
  using Stored = typename Format::Stored;
  std::mt19937_64 rng(distinct_keys * 131 + fan_in * 7 + threads);
  std::size_t total = 0;
  for (const auto& runs : layout) {
    for (std::size_t size : runs) total += size;
  }
  std::vector<Stored> a(total), b(total);
  std::vector<std::vector<SortedRun<Stored>>> segments(layout.size());
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> expected(layout.size());
  std::size_t at = 0;
  std::uint64_t rid = 0;
  for (std::size_t seg = 0; seg < layout.size(); ++seg) {
    for (std::size_t size : layout[seg]) {
      std::vector<Tuple> run(size);
      for (Tuple& t : run) {
        t = {seg * distinct_keys + rng() % distinct_keys, rid++ % 1000003};
        expected[seg].push_back({t.key, t.rid});
      }
      // Runs are sorted by key only: equal keys keep a random rid order.
      std::stable_sort(run.begin(), run.end(), [](const Tuple& x, const Tuple& y) { return x.key < y.key; });
      for (std::size_t i = 0; i < size; ++i) a[at + i] = format.encode(run[i]);
      segments[seg].push_back({a.data() + at, size});
      at += size;
    }
  }
  Stored* source = a.data();
  Stored* target = b.data();
  auto unmerged = [&] {
    return std::any_of(segments.begin(), segments.end(), [](const auto& runs) { return runs.size() > 1; });
  };
  while (unmerged()) {
    segments = merge_level(format, segments, fan_in, source, target, threads);
    std::swap(source, target);
  }
  for (std::size_t seg = 0; seg < layout.size(); ++seg) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> got;
    for (const auto& run : segments[seg]) {
      ASSERT_GE(run.data, source);
      ASSERT_LE(run.data + run.size, source + total);
      for (std::size_t i = 0; i < run.size; ++i) {
        got.push_back({format.key(run.data[i]), format.rid(run.data[i])});
        if (i > 0) {
          ASSERT_LE(format.key(run.data[i - 1]), format.key(run.data[i])) << "segment " << seg << " at " << i;
        }
      }
    }
    std::sort(got.begin(), got.end());
    std::sort(expected[seg].begin(), expected[seg].end());
    ASSERT_EQ(got, expected[seg]) << "segment " << seg;
  }
}

template <class Format>
void check_all_layouts(const Format& format) {
  for (unsigned threads : {1u, 3u}) {
    SCOPED_TRACE(threads);
    // Seventeen runs, fan-in 16: two levels, pieces cut through 16 runs.
    check_merge(format, Layout{std::vector<std::size_t>(17, 5000)}, 1u << 20, 16, threads);
    // Few keys: pieces larger than planned, cuts that make no progress.
    check_merge(format, Layout{std::vector<std::size_t>(17, 5000)}, 100, 16, threads);
    // All tuples share one key: the whole group is one piece.
    check_merge(format, Layout{std::vector<std::size_t>(5, 20000)}, 1, 16, threads);
    // Fourteen runs (14 -> 7 -> 4 -> 2 parts per piece): the seventh part,
    // merged in the first inner level, is left over in the second and merged
    // in the third.
    check_merge(format, Layout{std::vector<std::size_t>(14, 3000)}, 1u << 20, 16, threads);
    // Odd fan-in (a lone part copied in the inner level), uneven runs.
    check_merge(format, Layout{{40000, 3, 17000, 1, 25000, 9999, 64}}, 1u << 30, 3, threads);
    // Segments with one, two and three runs; two runs are cut only for balance.
    check_merge(format, Layout{{7}, {100000, 90000}, {1, 2, 3}, {}, {33333}}, 5000, 2, threads);
  }
}

TEST(MergeLevel, CompressedTuplesMatchTheInputInKeyOrder) {
  check_all_layouts(OffsetCompressedFormat{0, 20});
}

TEST(MergeLevel, WideTuplesMatchTheInputInKeyOrder) { check_all_layouts(WideTupleFormat{}); }

TEST(MergeLevel, PiecesOfAGroupCoverEveryRunOnceAtCommonKeys) {
  const WideTupleFormat format;
  std::vector<Tuple> x, y, z;
  for (std::uint64_t k = 0; k < 30000; ++k) {
    x.push_back({k, k});
    if (k % 3 == 0) y.push_back({k, k});
    if (k % 5 == 0) {
      for (int d = 0; d < 4; ++d) z.push_back({k, k});
    }
  }
  const std::vector<SortedRun<Tuple>> runs{{x.data(), x.size()}, {y.data(), y.size()}, {z.data(), z.size()}};
  const std::vector<std::size_t> cuts = run_merge::cut_into_pieces(format, runs, 4096);
  const std::size_t rows = cuts.size() / 3;
  ASSERT_GT(rows, 10u);  // 64000 tuples in pieces of about 4096
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(cuts[i], 0u);
    EXPECT_EQ(cuts[(rows - 1) * 3 + i], runs[i].size);
  }
  for (std::size_t row = 1; row + 1 < rows; ++row) {
    // Every run is cut before the same key: all tuples before the cut are
    // below every tuple after it.
    std::uint64_t below = 0, above = ~std::uint64_t{0};
    std::size_t piece = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      const std::size_t cut = cuts[row * 3 + i];
      ASSERT_GE(cut, cuts[(row - 1) * 3 + i]);
      piece += cut - cuts[(row - 1) * 3 + i];
      if (cut > 0) below = std::max(below, runs[i].data[cut - 1].key);
      if (cut < runs[i].size) above = std::min(above, runs[i].data[cut].key);
    }
    EXPECT_LT(below, above) << "row " << row;
    EXPECT_LE(piece, 2 * 4096u + 3) << "row " << row;
  }
}

}  // namespace
}  // namespace hpcdb
