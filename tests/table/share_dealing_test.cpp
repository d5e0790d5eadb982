#include "hpcdb/table/share_dealing.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace hpcdb {
namespace {

std::vector<std::uint64_t> rows_per_rank(const std::vector<std::uint64_t>& units, int ranks) {
  const std::vector<int> owner = deal_units(units, ranks);
  std::vector<std::uint64_t> rows(static_cast<std::size_t>(ranks), 0);
  for (std::size_t i = 0; i < units.size(); ++i) rows[static_cast<std::size_t>(owner[i])] += units[i];
  return rows;
}

TEST(ShareDealing, EqualUnitsSpreadEvenlyInOrder) {
  const std::vector<std::uint64_t> units(12, 100);
  const std::vector<int> owner = deal_units(units, 4);
  EXPECT_TRUE(std::is_sorted(owner.begin(), owner.end()));
  EXPECT_EQ(rows_per_rank(units, 4), (std::vector<std::uint64_t>{300, 300, 300, 300}));
}

TEST(ShareDealing, EveryRankWithinHalfTheLargestUnitOfItsShare) {
  const std::vector<std::uint64_t> units = {7, 300, 12, 90, 90, 1, 250, 40, 40, 40, 5, 128};
  std::uint64_t total = 0, largest = 0;
  for (std::uint64_t u : units) total += u, largest = std::max(largest, u);
  for (int ranks = 1; ranks <= 5; ++ranks) {
    const std::vector<std::uint64_t> rows = rows_per_rank(units, ranks);
    for (std::uint64_t r : rows) {
      EXPECT_LE(r, total / static_cast<std::uint64_t>(ranks) + largest) << ranks << " ranks";
    }
    const std::vector<int> owner = deal_units(units, ranks);
    EXPECT_TRUE(std::is_sorted(owner.begin(), owner.end())) << "rows keep their order";
    EXPECT_LT(*std::max_element(owner.begin(), owner.end()), ranks);
  }
}

TEST(ShareDealing, FewerUnitsThanRanksLeaveSomeRanksEmpty) {
  const std::vector<int> owner = deal_units({1000}, 4);
  ASSERT_EQ(owner.size(), 1u);
  EXPECT_GE(owner[0], 0);
  EXPECT_LT(owner[0], 4);
  EXPECT_EQ(deal_units({}, 3).size(), 0u);
  EXPECT_EQ(deal_units({0, 0, 0}, 3), (std::vector<int>{0, 0, 0}));
}

}  // namespace
}  // namespace hpcdb
