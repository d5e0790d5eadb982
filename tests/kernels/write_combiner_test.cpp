#include "hpcdb/kernels/write_combiner.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {
namespace {

// Scatters items into exactly-sized runs at arbitrary (unaligned) offsets of
// one array, with guard slots around every run that must stay untouched.
// Items go in one at a time (push) or two at a time (push_pair).
template <class Stored>
void check_scatter(std::size_t partitions, std::size_t n, std::size_t first_offset, std::uint64_t seed,
                   bool pairs = false) {
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> part_of(n);
  std::vector<std::size_t> counts(partitions, 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[part_of[i] = rng() % partitions];
  const std::size_t guard = 3;
  std::vector<std::size_t> begin(partitions);
  std::size_t cursor = first_offset;
  for (std::size_t p = 0; p < partitions; ++p) {
    begin[p] = cursor;
    cursor += counts[p] + guard;
  }
  AlignedArray<Stored> memory(cursor + 16);
  Stored sentinel;
  std::memset(&sentinel, 0xAB, sizeof sentinel);
  for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = sentinel;

  WriteCombiner<Stored> combiner(partitions);
  for (std::size_t p = 0; p < partitions; ++p) combiner.set_run(p, memory.data() + begin[p], memory.data() + begin[p] + counts[p]);
  std::vector<Stored> items(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::memset(&items[i], 0, sizeof(Stored));
    std::memcpy(&items[i], &i, sizeof i);
  }
  std::vector<std::size_t> exhausted(partitions, 0);
  auto on_exhausted = [&](std::size_t p) { ++exhausted[p]; };
  std::size_t i = 0;
  for (; pairs && i + 2 <= n; i += 2) combiner.push_pair(part_of[i], items[i], part_of[i + 1], items[i + 1], on_exhausted);
  for (; i < n; ++i) {
    if (combiner.push(part_of[i], items[i])) on_exhausted(part_of[i]);
  }
  // A run is reported exhausted only when a full line reaches its end.
  for (std::size_t p = 0; p < partitions; ++p) EXPECT_LE(exhausted[p], 1u) << "partition " << p;
  for (std::size_t p = 0; p < partitions; ++p) {
    EXPECT_EQ(combiner.drain(p), memory.data() + begin[p] + counts[p]);
  }
  WriteCombiner<Stored>::publish();

  std::vector<std::size_t> seen(partitions, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = part_of[i];
    ASSERT_EQ(std::memcmp(&memory[begin[p] + seen[p]], &items[i], sizeof(Stored)), 0) << "item " << i;
    ++seen[p];
  }
  for (std::size_t p = 0; p < partitions; ++p) {
    for (std::size_t g = 0; g < guard; ++g) {
      ASSERT_EQ(std::memcmp(&memory[begin[p] + counts[p] + g], &sentinel, sizeof(Stored)), 0) << "guard of " << p;
    }
  }
}

TEST(WriteCombiner, EightByteItemsAtUnalignedOffsets) {
  for (std::size_t offset : {0u, 1u, 5u, 7u}) check_scatter<std::uint64_t>(64, 10000, offset, offset);
}

TEST(WriteCombiner, SixteenByteItems) {
  for (std::size_t offset : {0u, 1u, 3u}) check_scatter<Tuple>(32, 5000, offset, 10 + offset);
}

TEST(WriteCombiner, TinyRunsShorterThanALine) { check_scatter<std::uint64_t>(512, 700, 3, 99); }

TEST(WriteCombiner, PairsMatchSinglePushes) {
  // 2 partitions: about half the pairs go to one partition (push_pair's
  // equal-partition path), the others to different ones.
  for (std::size_t offset : {0u, 3u}) check_scatter<std::uint64_t>(2, 1001, offset, 20 + offset, true);
  check_scatter<std::uint64_t>(64, 10001, 5, 30, true);
  check_scatter<Tuple>(3, 999, 1, 40, true);
}

TEST(WriteCombiner, PairsInstallTheNextRunBeforeTheSecondItem) {
  // Runs of 8 items in one buffer: every 8th item exhausts the run, and the
  // callback installs the next one, also between the two items of a pair.
  AlignedArray<std::uint64_t> buffer(64);
  WriteCombiner<std::uint64_t> combiner(1);
  std::size_t runs = 0;
  auto next_run = [&](std::size_t p) {
    ++runs;
    combiner.set_run(p, buffer.data() + 8 * runs, buffer.data() + 8 * (runs + 1));
  };
  combiner.set_run(0, buffer.data(), buffer.data() + 8);
  if (combiner.push(0, 0)) next_run(0);
  for (std::uint64_t v = 1; v + 1 < 40; v += 2) combiner.push_pair(0, v, 0, v + 1, next_run);  // 7 exhausts in (7, 8)
  if (combiner.push(0, 39)) next_run(0);
  EXPECT_EQ(combiner.drain(0), buffer.data() + 40);
  EXPECT_EQ(runs, 5u);
  for (std::uint64_t v = 0; v < 40; ++v) EXPECT_EQ(buffer[v], v);
}

TEST(WriteCombiner, ReportsFullBuffers) {
  AlignedArray<std::uint64_t> buffer(32);
  WriteCombiner<std::uint64_t> combiner(1);
  combiner.set_run(0, buffer.data(), buffer.data() + 16);
  int full = 0;
  for (std::uint64_t i = 0; i < 16; ++i) full += combiner.push(0, i) ? 1 : 0;
  EXPECT_EQ(full, 1);
  for (std::uint64_t i = 0; i < 16; ++i) EXPECT_EQ(buffer[i], i);
}

TEST(WriteCombiner, AnExtendedRunGoesOnWhereItEnded) {
  AlignedArray<std::uint64_t> buffer(40);
  WriteCombiner<std::uint64_t> combiner(1);
  combiner.set_run(0, buffer.data() + 3, buffer.data() + 13);  // ends mid-line
  for (std::uint64_t i = 0; i < 10; ++i) EXPECT_FALSE(combiner.push(0, i)) << i;
  combiner.extend_run(0, buffer.data() + 24);  // exactly at a line's end
  for (std::uint64_t i = 10; i < 21; ++i) EXPECT_EQ(combiner.push(0, i), i == 20) << i;
  combiner.extend_run(0, buffer.data() + 35);  // after it was reported exhausted
  for (std::uint64_t i = 21; i < 32; ++i) EXPECT_FALSE(combiner.push(0, i)) << i;
  EXPECT_EQ(combiner.drain(0), buffer.data() + 35);
  for (std::uint64_t i = 0; i < 32; ++i) EXPECT_EQ(buffer[3 + i], i);
}

}  // namespace
}  // namespace hpcdb
