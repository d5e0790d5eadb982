#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "hpcdb/join/radix/partition_join_tasks.hpp"

namespace hpcdb {
namespace {

TEST(PartitionSlices, ProbeHeavyPartitionGetsOneSlicePerWorker) {
  EXPECT_EQ(slices_for(100, 100000, 2), 2u);
  EXPECT_EQ(slices_for(100, 100000, 3), 3u);
  EXPECT_EQ(slices_for(100000, 100, 4), 4u);
}

TEST(PartitionSlices, BalancedSidesAreNotCutFurtherThanTheirRatio) {
  // Each slice joins the whole smaller side again: equal sides gain nothing.
  EXPECT_EQ(slices_for(1000, 1000, 4), 1u);
  EXPECT_EQ(slices_for(1000, 1999, 4), 1u);
  EXPECT_EQ(slices_for(1000, 3000, 4), 3u);
  EXPECT_EQ(slices_for(0, 1000000, 4), 1u);
  EXPECT_EQ(slices_for(1000, 0, 4), 1u);
  EXPECT_EQ(slices_for(10, 1000000, 1), 1u);
  EXPECT_EQ(slices_for(10, 1000000, 0), 1u);
}

// The slices must cover the larger side exactly once and keep the smaller whole.
void expect_exact_cover(const std::vector<PartitionSlice>& cut, std::uint64_t inner, std::uint64_t outer) {
  const bool inner_cut = inner > outer;
  std::uint64_t next = 0;
  for (const PartitionSlice& slice : cut) {
    EXPECT_EQ(slice.partition, 7u);
    if (inner_cut) {
      EXPECT_EQ(slice.r_begin, next);
      next = slice.r_end;
      EXPECT_EQ(slice.s_begin, 0u);
      EXPECT_EQ(slice.s_end, outer);
    } else {
      EXPECT_EQ(slice.s_begin, next);
      next = slice.s_end;
      EXPECT_EQ(slice.r_begin, 0u);
      EXPECT_EQ(slice.r_end, inner);
    }
    EXPECT_LE(slice.work(), inner + outer);
  }
  EXPECT_EQ(next, inner_cut ? inner : outer);
}

TEST(PartitionSlices, CutCoversTheLargerSideOnce) {
  for (unsigned slices : {1u, 2u, 3u, 7u}) {
    const std::vector<PartitionSlice> probe_cut = cut_partition(7, 10, 1001, slices);
    ASSERT_EQ(probe_cut.size(), slices);
    expect_exact_cover(probe_cut, 10, 1001);
    const std::vector<PartitionSlice> build_cut = cut_partition(7, 1001, 10, slices);
    ASSERT_EQ(build_cut.size(), slices);
    expect_exact_cover(build_cut, 1001, 10);
  }
  // More slices than tuples: some are empty, none overlap.
  expect_exact_cover(cut_partition(7, 1, 2, 3), 1, 2);
}

}  // namespace
}  // namespace hpcdb
