#include "hpcdb/txn/lock_table.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

using M = LockMode;
constexpr std::uint64_t kTimeout = 100'000'000;  // 100 ms

bool granted(const std::optional<LockReply>& r) { return r && r->granted; }
bool denied(const std::optional<LockReply>& r) { return r && !r->granted; }

TEST(LockTable, GrantsCompatibleAndQueuesConflicts) {
  LockTable t(100, 10, DeadlockPolicy::bounded_wait, kTimeout);
  EXPECT_TRUE(granted(t.request(1, 0, 100, M::IS, 0)));
  EXPECT_TRUE(granted(t.request(2, 0, 100, M::IX, 0)));
  EXPECT_EQ(t.group(100), M::IX);
  EXPECT_FALSE(t.request(3, 1, 100, M::S, 0).has_value());  // waits: S conflicts with IX
  EXPECT_EQ(t.waiting(100), 1u);
  // No barging: IS is compatible with the group but someone waits.
  EXPECT_FALSE(t.request(4, 1, 100, M::IS, 0).has_value());
  EXPECT_EQ(t.pending_locks(), 1u);
  EXPECT_THROW(t.request(5, 0, 99, M::S, 0), Error);
  EXPECT_THROW(t.request(5, 0, 110, M::S, 0), Error);
}

TEST(LockTable, ReleaseGrantsFromTheHeadInOrder) {
  LockTable t(0, 4, DeadlockPolicy::bounded_wait, kTimeout);
  ASSERT_TRUE(granted(t.request(1, 0, 2, M::X, 0)));
  EXPECT_FALSE(t.request(2, 1, 2, M::S, 0).has_value());
  EXPECT_FALSE(t.request(3, 2, 2, M::IS, 0).has_value());
  EXPECT_FALSE(t.request(4, 3, 2, M::X, 0).has_value());
  EXPECT_FALSE(t.request(5, 4, 2, M::S, 0).has_value());
  const std::vector<LockReply> grants = t.release_all(1);
  // S and IS are granted together; X stops the scan; S behind X keeps waiting.
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].txn, 2u);
  EXPECT_EQ(grants[1].txn, 3u);
  EXPECT_EQ(grants[1].agent, 2);
  EXPECT_EQ(t.group(2), M::S);
  EXPECT_EQ(t.waiting(2), 2u);
  EXPECT_TRUE(t.release_all(2).empty());
  const std::vector<LockReply> next = t.release_all(3);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].txn, 4u);
  EXPECT_EQ(next[0].mode, M::X);
}

TEST(LockTable, OneReleaseFreesEveryLockOfTheTransaction) {
  LockTable t(0, 8, DeadlockPolicy::bounded_wait, kTimeout);
  for (LockId l = 0; l < 8; ++l) ASSERT_TRUE(granted(t.request(7, 0, l, l % 2 ? M::X : M::S, 0)));
  EXPECT_EQ(t.transactions(), 1u);
  EXPECT_TRUE(t.release_all(7).empty());
  for (LockId l = 0; l < 8; ++l) EXPECT_EQ(t.group(l), M::NL);
  EXPECT_EQ(t.transactions(), 0u);
}

TEST(LockTable, ConversionsUpgradeInPlaceOrWaitAtTheHead) {
  LockTable t(0, 2, DeadlockPolicy::bounded_wait, kTimeout);
  ASSERT_TRUE(granted(t.request(1, 0, 0, M::S, 0)));
  auto up = t.request(1, 0, 0, M::X, 0);  // alone: S -> X at once
  ASSERT_TRUE(granted(up));
  EXPECT_EQ(up->mode, M::X);
  EXPECT_EQ(t.group(0), M::X);

  ASSERT_TRUE(granted(t.request(2, 0, 1, M::IX, 0)));
  ASSERT_TRUE(granted(t.request(3, 1, 1, M::IS, 0)));
  auto six = t.request(2, 0, 1, M::S, 0);  // IX + S -> SIX, compatible with the other IS
  ASSERT_TRUE(granted(six));
  EXPECT_EQ(six->mode, M::SIX);
  EXPECT_EQ(t.held_by(2, 1), M::SIX);
  // txn 4 asks for S (conflicts with SIX) and waits; then txn 3 (holding IS)
  // asks for X: its conversion waits ahead of txn 4's new request.
  EXPECT_FALSE(t.request(4, 2, 1, M::S, 0).has_value());
  EXPECT_FALSE(t.request(3, 1, 1, M::X, 0).has_value());
  const std::vector<LockReply> grants = t.release_all(2);
  ASSERT_EQ(grants.size(), 1u);  // txn 4's S must wait behind the X
  EXPECT_EQ(grants[0].txn, 3u);
  EXPECT_EQ(grants[0].mode, M::X);
  EXPECT_EQ(t.held_by(3, 1), M::X);
  EXPECT_EQ(t.group(1), M::X);
}

TEST(LockTable, TwoSharedHoldersUpgradingIsADeadlockThatTimeoutsBreak) {
  LockTable t(0, 1, DeadlockPolicy::bounded_wait, kTimeout);
  ASSERT_TRUE(granted(t.request(1, 0, 0, M::S, 0)));
  ASSERT_TRUE(granted(t.request(2, 1, 0, M::S, 0)));
  EXPECT_FALSE(t.request(1, 0, 0, M::X, 10).has_value());
  EXPECT_FALSE(t.request(2, 1, 0, M::X, 20).has_value());
  EXPECT_TRUE(t.expire(kTimeout).empty());                   // nobody's time is up yet
  const std::vector<LockReply> r = t.expire(kTimeout + 15);  // the head (txn 1's conversion) times out
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].txn, 1u);
  EXPECT_FALSE(r[0].granted);
  EXPECT_EQ(t.held_by(1, 0), M::S);  // a denied conversion keeps the old mode
  // txn 1 aborts: txn 2's conversion goes through.
  const std::vector<LockReply> g = t.release_all(1);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].txn, 2u);
  EXPECT_EQ(g[0].mode, M::X);
}

TEST(LockTable, BoundedWaitDeniesOnlyTheHeadThenRechecks) {
  LockTable t(0, 1, DeadlockPolicy::bounded_wait, kTimeout);
  ASSERT_TRUE(granted(t.request(1, 0, 0, M::IX, 0)));
  EXPECT_FALSE(t.request(2, 1, 0, M::S, 0).has_value());           // deadline 100 ms
  EXPECT_FALSE(t.request(3, 2, 0, M::IS, kTimeout).has_value());   // deadline 200 ms
  const std::vector<LockReply> r = t.expire(kTimeout);
  // The S head is denied; the IS behind it is compatible with IX and is granted now.
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(r[0].granted);
  EXPECT_EQ(r[0].txn, 2u);
  EXPECT_TRUE(r[1].granted);
  EXPECT_EQ(r[1].txn, 3u);
  EXPECT_EQ(t.pending_locks(), 0u);
}

TEST(LockTable, NoWaitDeniesAtOnce) {
  LockTable t(0, 1, DeadlockPolicy::no_wait, kTimeout);
  ASSERT_TRUE(granted(t.request(1, 0, 0, M::S, 0)));
  EXPECT_TRUE(denied(t.request(2, 0, 0, M::X, 0)));
  EXPECT_TRUE(granted(t.request(3, 0, 0, M::IS, 0)));
  EXPECT_EQ(t.pending_locks(), 0u);
}

TEST(LockTable, WaitDieLetsOlderWaitAndYoungerDie) {
  LockTable t(0, 1, DeadlockPolicy::wait_die, kTimeout);
  ASSERT_TRUE(granted(t.request(5, 0, 0, M::X, 0)));
  EXPECT_FALSE(t.request(3, 1, 0, M::S, 0).has_value());  // older than the holder: waits
  EXPECT_TRUE(denied(t.request(8, 2, 0, M::S, 0)));       // younger: dies
  const std::vector<LockReply> g = t.release_all(5);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].txn, 3u);
}

TEST(LockTable, AbortWithdrawsWaitingRequests) {
  LockTable t(0, 1, DeadlockPolicy::bounded_wait, kTimeout);
  ASSERT_TRUE(granted(t.request(1, 0, 0, M::X, 0)));
  EXPECT_FALSE(t.request(2, 1, 0, M::X, 0).has_value());
  EXPECT_FALSE(t.request(3, 2, 0, M::S, 0).has_value());
  EXPECT_TRUE(t.release_all(2).empty());  // txn 2 gives up while waiting
  EXPECT_EQ(t.waiting(0), 1u);
  const std::vector<LockReply> g = t.release_all(1);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].txn, 3u);
}

}  // namespace
}  // namespace hpcdb

namespace hpcdb {
namespace {

TEST(LockTable, ReleasingOneLockGrantsWaitersAndKeepsTheOthers) {
  LockTable t(0, 4, DeadlockPolicy::bounded_wait, 100'000'000);
  ASSERT_TRUE(t.request(1, 0, 0, LockMode::S, 0)->granted);
  ASSERT_TRUE(t.request(1, 0, 1, LockMode::X, 0)->granted);
  EXPECT_FALSE(t.request(2, 1, 0, LockMode::X, 0).has_value());
  const auto grants = t.release(1, 0);  // early release of the read lock
  ASSERT_EQ(grants.size(), 1u);
  EXPECT_EQ(grants[0].txn, 2u);
  EXPECT_EQ(grants[0].mode, LockMode::X);
  EXPECT_EQ(t.held_by(1, 0), LockMode::NL);
  EXPECT_EQ(t.held_by(1, 1), LockMode::X);  // still held
  EXPECT_TRUE(t.knows(1));
  EXPECT_TRUE(t.release(1, 3).empty());     // not held: nothing happens
  EXPECT_TRUE(t.release_all(1).empty());
  EXPECT_FALSE(t.knows(1));
  EXPECT_EQ(t.group(1), LockMode::NL);
}

}  // namespace
}  // namespace hpcdb
