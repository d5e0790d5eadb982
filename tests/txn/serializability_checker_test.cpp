#include "hpcdb/txn/serializability_checker.hpp"

#include <gtest/gtest.h>

namespace hpcdb {
namespace {

CommittedTxn txn(TxnId id, std::vector<RecordVersion> reads, std::vector<RecordVersion> writes) {
  return {id, std::move(reads), std::move(writes)};
}

TEST(HistoryCheck, AcceptsASerialHistory) {
  // T1 writes x; T2 reads T1's x and writes y; T3 reads both.
  const std::vector<CommittedTxn> h = {txn(1, {{10, 0}}, {{10, 0}}), txn(2, {{10, 1}, {20, 0}}, {{20, 0}}),
                                       txn(3, {{10, 1}, {20, 2}}, {})};
  const HistoryCheck c = check_history(h, {{10, 1}, {20, 2}}, true);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.transactions, 3u);
  EXPECT_GT(c.edges, 0u);
}

TEST(HistoryCheck, FindsWriteSkewCycle) {
  // T1 reads y0 and overwrites x0; T2 reads x0 and overwrites y0: each must precede the other.
  const std::vector<CommittedTxn> h = {txn(1, {{20, 0}}, {{10, 0}}), txn(2, {{10, 0}}, {{20, 0}})};
  const HistoryCheck c = check_history(h, {{10, 1}, {20, 2}}, true);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.problem.find("cycle"), std::string::npos) << c.problem;
  // Read committed does not promise serializability: the same history passes.
  EXPECT_TRUE(check_history(h, {{10, 1}, {20, 2}}, false).ok);
}

TEST(HistoryCheck, FindsLostUpdate) {
  const std::vector<CommittedTxn> h = {txn(1, {{10, 0}}, {{10, 0}}), txn(2, {{10, 0}}, {{10, 0}})};
  const HistoryCheck c = check_history(h, {{10, 2}}, false);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.problem.find("lost update"), std::string::npos) << c.problem;
}

TEST(HistoryCheck, FindsDirtyRead) {
  // T2 read a version written by transaction 7, which never committed.
  const std::vector<CommittedTxn> h = {txn(2, {{10, 7}}, {})};
  const HistoryCheck c = check_history(h, {}, false);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.problem.find("dirty"), std::string::npos) << c.problem;
}

TEST(HistoryCheck, FindsWrongFinalState) {
  const std::vector<CommittedTxn> h = {txn(1, {}, {{10, 0}})};
  EXPECT_TRUE(check_history(h, {{10, 1}}, true).ok);
  EXPECT_FALSE(check_history(h, {}, true).ok);                   // the write was lost
  EXPECT_FALSE(check_history(h, {{10, 1}, {11, 9}}, true).ok);   // an uncommitted write survived
  EXPECT_FALSE(check_history(h, {{10, 5}}, true).ok);
}

TEST(HistoryCheck, RejectsDuplicateIds) {
  EXPECT_FALSE(check_history({txn(1, {}, {}), txn(1, {}, {})}, {}, true).ok);
}

TEST(TxnHistory, EncodingRoundTrips) {
  const std::vector<CommittedTxn> h = {txn(5, {{1, 0}, {2, 3}}, {{1, 0}}), txn(6, {}, {})};
  std::vector<std::uint64_t> words;
  for (const auto& t : h) append_encoded(t, words);
  const auto back = decode_history(words);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].id, 5u);
  ASSERT_EQ(back[0].reads.size(), 2u);
  EXPECT_EQ(back[0].reads[1].version, 3u);
  ASSERT_EQ(back[0].writes.size(), 1u);
  EXPECT_EQ(back[1].id, 6u);
  words.pop_back();
  words.push_back(7);  // claims reads that are not there
  words.push_back(1);
  EXPECT_ANY_THROW(decode_history(words));
}

}  // namespace
}  // namespace hpcdb
