#include "hpcdb/txn/lock_space.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

TEST(LockSpace, EncodesNamesReversibly) {
  for (const LockName n : {LockName{0, 0, 0}, LockName{5, 3, 12345}, LockName{LockSpace::kMaxPartitions - 1, 63, LockSpace::kWholePartition},
                           LockName{7, 1, LockSpace::kMaxKey}}) {
    EXPECT_EQ(LockSpace::name_of(LockSpace::id_of(n)), n);
    EXPECT_EQ(LockSpace::partition_of(LockSpace::id_of(n)), n.partition);
  }
  // Ids of one partition are consecutive and ordered by table, then key.
  EXPECT_LT(LockSpace::key_lock(2, 4, 99), LockSpace::key_lock(3, 4, 0));
  EXPECT_LT(LockSpace::partition_lock(63, 4), LockSpace::key_lock(0, 5, 0));
}

TEST(LockSpace, DealsPartitionsInEqualRanges) {
  const LockSpace space(10, {3, 5, 7});  // 4 + 3 + 3 partitions
  EXPECT_EQ(space.first_partition_of(0), 0u);
  EXPECT_EQ(space.end_partition_of(0), 4u);
  EXPECT_EQ(space.first_partition_of(1), 4u);
  EXPECT_EQ(space.end_partition_of(2), 10u);
  for (std::uint32_t p = 0; p < 10; ++p) {
    const int agent = space.agent_of_partition(p);
    EXPECT_GE(p, space.first_partition_of(agent));
    EXPECT_LT(p, space.end_partition_of(agent));
    const int rank = space.agent_ranks()[static_cast<std::size_t>(agent)];
    EXPECT_EQ(space.owner_of(LockSpace::key_lock(1, p, 17)), rank);
    EXPECT_EQ(space.owner_of(LockSpace::partition_lock(9, p)), rank);
  }
  for (int a = 0; a < 3; ++a) {
    // Every agent's copies of the hierarchy locks are its own, and its ids are one range.
    EXPECT_EQ(space.owner_of(space.database_lock(a)), space.agent_ranks()[static_cast<std::size_t>(a)]);
    EXPECT_EQ(space.owner_of(space.table_lock(5, a)), space.agent_ranks()[static_cast<std::size_t>(a)]);
    EXPECT_NE(space.table_lock(5, a), space.table_lock(6, a));
    EXPECT_GE(space.table_lock(5, a), space.first_lock_of(a));
    EXPECT_LT(space.table_lock(5, a), space.end_lock_of(a));
    if (a > 0) {
      EXPECT_EQ(space.first_lock_of(a), space.end_lock_of(a - 1));
    }
  }
  EXPECT_THROW(space.owner_of(LockSpace::key_lock(1, 10, 0)), Error);
}

TEST(LockSpace, RefusesMoreAgentsThanPartitions) {
  EXPECT_THROW(LockSpace(2, {0, 1, 2}), UsageError);
  EXPECT_THROW(LockSpace(1, {}), UsageError);
  EXPECT_NO_THROW(LockSpace(3, {0, 1, 2}));
}

}  // namespace
}  // namespace hpcdb
