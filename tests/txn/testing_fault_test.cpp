// The engine bugs of --testing-fault, each as it shows in one transaction
// against a lock table and memory in this process: what the fault changes,
// and that without it the engine does the right thing.
#include "hpcdb/txn/testing_fault.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/transaction.hpp"
#include "txn/local_lock_service.hpp"

namespace hpcdb {
namespace {

using testing::LocalLockService;
using testing::MemoryData;

// Memory that notes every write made while the transaction held no lock.
class WatchedData final : public DataAccess {
 public:
  WatchedData(MemoryData& data, const LocalLockService& locks) : data_(data), locks_(locks) {}
  bool enabled() const override { return true; }
  void get(DataRef at, void* into, std::size_t bytes) override { data_.get(at, into, bytes); }
  void put(DataRef at, const void* from, std::size_t bytes) override {
    if (!locks_.table.knows(txn)) ++unprotected_writes;
    data_.put(at, from, bytes);
  }
  std::uint64_t load_word(DataRef at) override { return data_.load_word(at); }
  void complete() override {}

  TxnId txn = 0;
  int unprotected_writes = 0;

 private:
  MemoryData& data_;
  const LocalLockService& locks_;
};

// Two partitions at two lock agents: a transaction that writes both runs 2PC.
class FaultyTransaction : public ::testing::Test {
 protected:
  Transaction transaction(TestingFault fault) {
    TransactionSettings settings;
    settings.fault = fault;
    data_.txn = 7;
    return Transaction(locks_, data_, space_, settings, metrics_);
  }
  // Writes 42 into both partitions under X locks.
  void write_both(Transaction& txn) {
    txn.begin(7);
    for (std::uint32_t p = 0; p < 2; ++p) {
      txn.lock(LockSpace::key_lock(1, p, 0), LockMode::X);
      txn.write<std::uint64_t>({p, 0}, 42);
    }
  }
  std::uint64_t word(std::uint32_t region) { return *reinterpret_cast<std::uint64_t*>(memory_.region(region)); }

  LockSpace space_{2, {0, 1}};
  LocalLockService locks_;
  MemoryData memory_{{64, 64}};
  WatchedData data_{memory_, locks_};
  TxnMetrics metrics_;
};

TEST(TestingFaultNames, RoundTripAndListTheChoices) {
  for (TestingFault f : {TestingFault::none, TestingFault::early_release, TestingFault::skip_undo,
                         TestingFault::ignore_no_vote, TestingFault::no_next_key_lock}) {
    EXPECT_EQ(parse_testing_fault(to_string(f)), f);
  }
  try {
    parse_testing_fault("late-release");
    FAIL() << "an unknown fault must be refused";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown testing fault 'late-release' (use none, early-release, skip-undo, ignore-no-vote or "
                           "no-next-key-lock)");
  }
}

TEST_F(FaultyTransaction, RollBackUndoesItsWritesUnlessSkipUndo) {
  for (TestingFault fault : {TestingFault::none, TestingFault::skip_undo}) {
    Transaction txn = transaction(fault);
    write_both(txn);
    txn.roll_back();
    EXPECT_EQ(word(0), fault == TestingFault::none ? 0u : 42u) << to_string(fault);
    EXPECT_EQ(metrics_.counters.rollbacks, fault == TestingFault::none ? 1u : 2u) << "counted either way";
    *reinterpret_cast<std::uint64_t*>(memory_.region(0)) = 0;
    *reinterpret_cast<std::uint64_t*>(memory_.region(1)) = 0;
  }
}

TEST_F(FaultyTransaction, ANoVoteRollsBackUnlessIgnoreNoVote) {
  locks_.vote_yes = false;
  for (TestingFault fault : {TestingFault::none, TestingFault::ignore_no_vote}) {
    Transaction txn = transaction(fault);
    write_both(txn);
    const bool committed = txn.commit();
    EXPECT_EQ(committed, fault == TestingFault::ignore_no_vote) << to_string(fault);
    EXPECT_EQ(word(1), committed ? 42u : 0u);
    EXPECT_EQ(locks_.last_participants, 2u);
  }
}

TEST_F(FaultyTransaction, LocksAreHeldThroughTheVoteAndTheUndoUnlessEarlyRelease) {
  locks_.vote_yes = false;
  for (TestingFault fault : {TestingFault::none, TestingFault::early_release}) {
    data_.unprotected_writes = 0;
    Transaction txn = transaction(fault);
    write_both(txn);
    EXPECT_FALSE(txn.commit());
    const bool early = fault == TestingFault::early_release;
    EXPECT_EQ(locks_.voter_held_locks, !early) << to_string(fault);
    EXPECT_EQ(data_.unprotected_writes, early ? 2 : 0) << "the undo's two writes";
    EXPECT_FALSE(locks_.table.knows(7)) << "released in the end either way";
  }
}

TEST_F(FaultyTransaction, NextKeyLockingNeedsSerializableAndNoFault) {
  EXPECT_TRUE(transaction(TestingFault::none).next_key_locking());
  EXPECT_TRUE(transaction(TestingFault::skip_undo).next_key_locking());
  EXPECT_FALSE(transaction(TestingFault::no_next_key_lock).next_key_locking());
}

}  // namespace
}  // namespace hpcdb
