#include "hpcdb/data/row_workload.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

TEST(RowWorkload, RowsDependOnlyOnTheirIndex) {
  for (KeyDistribution keys : {KeyDistribution::uniform, KeyDistribution::zipf, KeyDistribution::all_to_one}) {
    RowWorkloadSpec spec;
    spec.rows = 1000;
    spec.row_bytes = 32;
    spec.keys = keys;
    std::vector<std::uint64_t> whole(1000 * 4), pieces(1000 * 4);
    generate_rows(spec, 0, 1000, whole.data());
    generate_rows(spec, 0, 333, pieces.data());
    generate_rows(spec, 333, 667, pieces.data() + 333 * 4);
    EXPECT_EQ(whole, pieces);
    for (std::size_t g = 0; g < 1000; ++g) {
      EXPECT_EQ(whole[g * 4 + 1], g);
      if (keys == KeyDistribution::all_to_one) {
        EXPECT_EQ(whole[g * 4], 0u);
      }
      if (keys == KeyDistribution::zipf) {
        EXPECT_LT(whole[g * 4], 1000u);
      }
    }
  }
}

TEST(RowWorkload, RankRangesCoverEveryRowOnce) {
  for (int ranks : {1, 3, 4}) {
    std::uint64_t next = 0;
    for (int r = 0; r < ranks; ++r) {
      const RowRange range = rank_rows(10, r, ranks);
      EXPECT_EQ(range.first, next);
      next += range.count;
    }
    EXPECT_EQ(next, 10u);
  }
  EXPECT_EQ(rank_rows(0, 2, 3).count, 0u);
}

TEST(RowWorkload, BadSpecsAreRefused) {
  RowWorkloadSpec spec;
  spec.row_bytes = 12;
  EXPECT_THROW(validate(spec), UsageError);
  spec.row_bytes = 8192;
  EXPECT_THROW(validate(spec), UsageError);
  spec.row_bytes = 16;
  spec.keys = KeyDistribution::zipf;
  spec.zipf_theta = 0;
  EXPECT_THROW(validate(spec), UsageError);
  spec.zipf_theta = 0.9;
  EXPECT_NO_THROW(validate(spec));
}

}  // namespace
}  // namespace hpcdb
