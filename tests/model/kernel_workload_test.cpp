// The inputs the calibration and the kernel benchmarks measure on.
#include "hpcdb/model/kernel_workload.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace hpcdb {
namespace {

TEST(ShuffledUniqueTuples, HoldsEveryKeyOnceWithItsPositionAsRid) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
    const AlignedArray<Tuple> tuples = shuffled_unique_tuples(n, 7);
    ASSERT_EQ(tuples.size(), n);
    std::vector<std::uint64_t> keys;
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(tuples[i].rid, i);
      keys.push_back(tuples[i].key);
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(keys[i], i);
  }
}

TEST(ShuffledUniqueTuples, TheSeedSetsTheOrder) {
  const AlignedArray<Tuple> a = shuffled_unique_tuples(1000, 7), b = shuffled_unique_tuples(1000, 7);
  const AlignedArray<Tuple> c = shuffled_unique_tuples(1000, 1);
  bool same_as_b = true, same_as_c = true, sorted = true;
  for (std::size_t i = 0; i < 1000; ++i) {
    same_as_b = same_as_b && a[i].key == b[i].key;
    same_as_c = same_as_c && a[i].key == c[i].key;
    sorted = sorted && a[i].key == i;
  }
  EXPECT_TRUE(same_as_b);
  EXPECT_FALSE(same_as_c);
  EXPECT_FALSE(sorted);
}

TEST(PartitionLayout, PartitionsLieBackToBackExactlySized) {
  const std::vector<std::uint64_t> counts{3, 0, 5, 1, 0};
  std::vector<std::uint64_t> out(9);
  const PartitionLayout layout = lay_out_partitions(counts, out.data());
  EXPECT_EQ(layout.start, (std::vector<std::uint64_t>{0, 3, 3, 8, 9, 9}));
  ASSERT_EQ(layout.targets.size(), counts.size());
  for (std::size_t p = 0; p < counts.size(); ++p) {
    EXPECT_EQ(layout.targets[p].direct, out.data() + layout.start[p]);
    EXPECT_EQ(layout.targets[p].rank, -1);
  }
  const PartitionLayout none = lay_out_partitions({}, out.data());
  EXPECT_TRUE(none.targets.empty());
  EXPECT_EQ(none.start, (std::vector<std::uint64_t>{0}));
}

}  // namespace
}  // namespace hpcdb
