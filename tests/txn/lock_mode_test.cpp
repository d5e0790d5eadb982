#include "hpcdb/txn/lock_mode.hpp"

#include <gtest/gtest.h>

namespace hpcdb {
namespace {

using M = LockMode;

TEST(LockMode, CompatibilityMatrixIsTheStandardOne) {
  // Rows: requested; columns: held. 1 = compatible (Gray's Table 2.1a).
  const int expected[6][6] = {
      {1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0}, {1, 1, 1, 0, 0, 0},
      {1, 1, 0, 1, 0, 0}, {1, 1, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0},
  };
  for (int r = 0; r < kLockModes; ++r) {
    for (int h = 0; h < kLockModes; ++h) {
      EXPECT_EQ(compatible(static_cast<M>(r), static_cast<M>(h)), expected[r][h] == 1)
          << to_string(static_cast<M>(r)) << " vs " << to_string(static_cast<M>(h));
      EXPECT_EQ(compatible(static_cast<M>(r), static_cast<M>(h)), compatible(static_cast<M>(h), static_cast<M>(r)));
    }
  }
}

TEST(LockMode, GroupModeOfGrantedCounts) {
  auto group = [](std::initializer_list<M> modes) {
    std::array<std::uint32_t, kLockModes> counts{};
    for (M m : modes) ++counts[static_cast<std::size_t>(index_of(m))];
    return group_mode(counts);
  };
  EXPECT_EQ(group({}), M::NL);
  EXPECT_EQ(group({M::IS, M::IS}), M::IS);
  EXPECT_EQ(group({M::IS, M::IX}), M::IX);
  EXPECT_EQ(group({M::IS, M::S, M::S}), M::S);
  EXPECT_EQ(group({M::IS, M::SIX}), M::SIX);
  EXPECT_EQ(group({M::X}), M::X);
}

TEST(LockMode, ConversionTargets) {
  EXPECT_EQ(supremum(M::S, M::X), M::X);
  EXPECT_EQ(supremum(M::IX, M::S), M::SIX);
  EXPECT_EQ(supremum(M::S, M::IX), M::SIX);
  EXPECT_EQ(supremum(M::IS, M::S), M::S);
  EXPECT_EQ(supremum(M::IS, M::IX), M::IX);
  EXPECT_EQ(supremum(M::SIX, M::IS), M::SIX);
  EXPECT_EQ(supremum(M::SIX, M::X), M::X);
  EXPECT_EQ(supremum(M::NL, M::IS), M::IS);
  EXPECT_EQ(supremum(M::S, M::S), M::S);
  for (int a = 0; a < kLockModes; ++a) {
    for (int b = 0; b < kLockModes; ++b) {
      const M s = supremum(static_cast<M>(a), static_cast<M>(b));
      // The supremum conflicts with at least everything either mode conflicts with.
      for (int h = 0; h < kLockModes; ++h) {
        if (!compatible(static_cast<M>(a), static_cast<M>(h)) || !compatible(static_cast<M>(b), static_cast<M>(h))) {
          EXPECT_FALSE(compatible(s, static_cast<M>(h)));
        }
      }
    }
  }
}

TEST(LockMode, Names) {
  for (int m = 0; m < kLockModes; ++m) EXPECT_EQ(parse_lock_mode(to_string(static_cast<M>(m))), static_cast<M>(m));
  EXPECT_FALSE(parse_lock_mode("Q").has_value());
}

}  // namespace
}  // namespace hpcdb
