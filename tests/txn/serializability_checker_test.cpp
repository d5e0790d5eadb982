#include "hpcdb/txn/serializability_checker.hpp"

#include <gtest/gtest.h>

#include <string>

namespace hpcdb {
namespace {

// Records are small lock ids (partition 0, table 0): record 10 is "p0/t0/k10".
CommittedTxn txn(TxnId id, std::vector<RecordVersion> reads, std::vector<RecordWrite> writes,
                 std::vector<LockRange> ranges = {}) {
  return {id, std::move(reads), std::move(writes), std::move(ranges)};
}
RecordWrite update(LockId record, TxnId replaced) { return {record, replaced, WriteKind::update}; }
RecordWrite insert(LockId record, TxnId replaced) { return {record, replaced, WriteKind::insert}; }
RecordWrite remove(LockId record, TxnId replaced) { return {record, replaced, WriteKind::remove}; }

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(HistoryCheck, AcceptsASerialHistory) {
  // T1 writes x; T2 reads T1's x and writes y; T3 reads both.
  const std::vector<CommittedTxn> h = {txn(1, {{10, 0}}, {update(10, 0)}), txn(2, {{10, 1}, {20, 0}}, {update(20, 0)}),
                                       txn(3, {{10, 1}, {20, 2}}, {})};
  const HistoryCheck c = check_history(h, {{10, 1}, {20, 2}}, true);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.transactions, 3u);
  EXPECT_GT(c.edges, 0u);
}

TEST(HistoryCheck, FindsWriteSkewAndAcceptsItsSerialNeighbour) {
  // T1 reads y0 and overwrites x0; T2 reads x0 and overwrites y0: each must precede the other.
  const std::vector<CommittedTxn> skew = {txn(1, {{20, 0}}, {update(10, 0)}), txn(2, {{10, 0}}, {update(20, 0)})};
  const HistoryCheck c = check_history(skew, {{10, 1}, {20, 2}}, true);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "serializability: the serialization graph has a cycle of 2 transactions")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "read p0/t0/k10 in version 0x0, which 0x1 overwrote")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "read p0/t0/k20 in version 0x0, which 0x2 overwrote")) << c.problem;
  // Read committed does not promise serializability: the same history passes.
  EXPECT_TRUE(check_history(skew, {{10, 1}, {20, 2}}, false).ok);
  // T2 saw T1's x: T1 then T2.
  const std::vector<CommittedTxn> serial = {txn(1, {{20, 0}}, {update(10, 0)}), txn(2, {{10, 1}}, {update(20, 0)})};
  EXPECT_TRUE(check_history(serial, {{10, 1}, {20, 2}}, true).ok);
}

TEST(HistoryCheck, FindsLostUpdateAndAcceptsTheChainedOne) {
  const std::vector<CommittedTxn> lost = {txn(1, {{10, 0}}, {update(10, 0)}), txn(2, {{10, 0}}, {update(10, 0)})};
  const HistoryCheck c = check_history(lost, {{10, 2}}, false);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "lost update: transactions 0x1 and 0x2 both overwrote version 0x0 of record p0/t0/k10"))
      << c.problem;
  const std::vector<CommittedTxn> chained = {txn(1, {{10, 0}}, {update(10, 0)}), txn(2, {{10, 1}}, {update(10, 1)})};
  EXPECT_TRUE(check_history(chained, {{10, 2}}, true).ok);
}

TEST(HistoryCheck, FindsDirtyReadAndDirtyWrite) {
  // T2 read a version written by transaction 7, which never committed.
  const HistoryCheck read = check_history({txn(2, {{10, 7}}, {})}, {}, false);
  EXPECT_FALSE(read.ok);
  EXPECT_TRUE(mentions(read.problem, "dirty read: transaction 0x2 read version 0x7 of record p0/t0/k10")) << read.problem;
  const HistoryCheck write = check_history({txn(2, {}, {update(10, 7)})}, {{10, 2}}, false);
  EXPECT_FALSE(write.ok);
  EXPECT_TRUE(mentions(write.problem, "dirty write: transaction 0x2 overwrote record p0/t0/k10 in version 0x7"))
      << write.problem;
  // Transaction 7 committed, but wrote another record: still dirty.
  EXPECT_FALSE(check_history({txn(7, {}, {update(11, 0)}), txn(2, {{10, 7}}, {})}, {{11, 7}}, false).ok);
  // The neighbour: 7 committed its write of record 10.
  EXPECT_TRUE(check_history({txn(7, {}, {update(10, 0)}), txn(2, {{10, 7}}, {})}, {{10, 7}}, true).ok);
}

TEST(HistoryCheck, FindsAThreeTransactionCycle) {
  // T1 reads x0, which T2 overwrites; T2 reads y0, which T3 overwrites; T1 reads T3's z.
  const std::vector<CommittedTxn> h = {txn(1, {{10, 0}, {30, 3}}, {}), txn(2, {{20, 0}}, {update(10, 0)}),
                                       txn(3, {}, {update(20, 0), update(30, 0)})};
  const std::vector<RecordVersion> finals = {{10, 2}, {20, 3}, {30, 3}};
  const HistoryCheck c = check_history(h, finals, true);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "cycle of 3 transactions")) << c.problem;
  for (const char* id : {"0x1", "0x2", "0x3"}) EXPECT_TRUE(mentions(c.problem, id)) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "0x1 read 0x3's version of p0/t0/k30")) << c.problem;
  // T1 read z before T3 wrote it: T1, T2, T3.
  const std::vector<CommittedTxn> serial = {txn(1, {{10, 0}, {30, 0}}, {}), txn(2, {{20, 0}}, {update(10, 0)}),
                                            txn(3, {}, {update(20, 0), update(30, 0)})};
  EXPECT_TRUE(check_history(serial, finals, true).ok);
}

TEST(HistoryCheck, FindsAPhantomThroughARangeRead) {
  // T1 scans [100, 200] and finds nothing; T2 inserts 150 there and updates
  // x; T1 then reads T2's x. T1 must precede T2 (it missed the insert) and
  // follow it (it saw x): a phantom.
  const std::vector<CommittedTxn> phantom = {txn(1, {{10, 2}}, {}, {{100, 200}}),
                                             txn(2, {}, {insert(150, 0), update(10, 0)})};
  const std::vector<RecordVersion> finals = {{10, 2}, {150, 2}};
  const HistoryCheck c = check_history(phantom, finals, true);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "cycle of 2 transactions")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "0x1's range read [p0/t0/k100 .. p0/t0/k200] saw p0/t0/k150 absent, and 0x2 then inserted "
                                  "it: a phantom"))
      << c.problem;
  EXPECT_GT(c.range_edges, 0u);
  // Without the range, the history of single rows alone shows no conflict.
  EXPECT_TRUE(check_history({txn(1, {{10, 2}}, {}), phantom[1]}, finals, true).ok);
  // Neighbours: T1 before T2 (x as it was), or T1 after T2 (it saw 150).
  EXPECT_TRUE(check_history({txn(1, {{10, 0}}, {}, {{100, 200}}), phantom[1]}, finals, true).ok);
  EXPECT_TRUE(check_history({txn(1, {{10, 2}, {150, 2}}, {}, {{100, 200}}), phantom[1]}, finals, true).ok);
  // An insert outside the range is no conflict.
  EXPECT_TRUE(check_history({txn(1, {{10, 2}}, {}, {{100, 149}}), phantom[1]}, finals, true).ok);
}

TEST(HistoryCheck, FindsAPhantomDelete) {
  // Row 150 was there at load. T2 deletes it and overwrites y, which T1 read
  // before; T1's scan of [100, 200] found no 150, so it came after the delete.
  const std::vector<CommittedTxn> h = {txn(1, {{20, 0}}, {}, {{100, 200}}), txn(2, {}, {remove(150, 0), update(20, 0)})};
  const std::vector<RecordVersion> finals = {{20, 2}, {150, 2}};
  const HistoryCheck c = check_history(h, finals, true);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "0x1's range read [p0/t0/k100 .. p0/t0/k200] saw p0/t0/k150 absent, as 0x2 had left it"))
      << c.problem;
  // T1 read T2's y: after T2 throughout.
  EXPECT_TRUE(check_history({txn(1, {{20, 2}}, {}, {{100, 200}}), h[1]}, finals, true).ok);
}

TEST(HistoryCheck, RangeReadOfARowInsertedAndDeletedAgainAddsNoEdge) {
  // 150 was inserted by T2 and deleted by T3: T1, which saw it absent, saw
  // either version; the checker cannot tell which and assumes neither.
  const std::vector<CommittedTxn> h = {txn(1, {{10, 0}}, {}, {{100, 200}}), txn(2, {}, {insert(150, 0), update(10, 0)}),
                                       txn(3, {}, {remove(150, 2)})};
  const HistoryCheck c = check_history(h, {{10, 2}, {150, 3}}, true);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.range_edges, 0u);
}

TEST(HistoryCheck, ARangeReadIsOrderedAfterTheNearestDeletesOnly) {
  // 20 rows loaded in [100, 119], each deleted by its own transaction, then
  // scanned by transaction 100 (which also missed an insert of 130).
  std::vector<CommittedTxn> h;
  std::vector<RecordVersion> finals;
  for (TxnId k = 1; k <= 20; ++k) {
    h.push_back(txn(k, {}, {remove(99 + k, 0)}));
    finals.push_back({99 + k, k});
  }
  h.push_back(txn(50, {}, {insert(130, 0)}));
  finals.push_back({130, 50});
  h.push_back(txn(100, {}, {}, {{100, 200}}));
  const HistoryCheck c = check_history(h, finals, true);
  EXPECT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.range_edges, 8u + 1u);
}

TEST(HistoryCheck, FindsAFourTransactionCycleClosedByARangeRead) {
  // T1 inserts 120; T2 overwrites T1's a; T3 reads T2's b, and c0, which T4
  // overwrites; T4's scan of [100, 200] missed T1's 120.
  const std::vector<CommittedTxn> h = {
      txn(1, {}, {insert(120, 0), update(10, 0)}), txn(2, {}, {update(10, 1), update(20, 0)}),
      txn(3, {{20, 2}, {30, 0}}, {}), txn(4, {}, {update(30, 0)}, {{100, 200}})};
  const std::vector<RecordVersion> finals = {{10, 2}, {20, 2}, {30, 4}, {120, 1}};
  const HistoryCheck c = check_history(h, finals, true);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "cycle of 4 transactions")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "0x2 overwrote 0x1's version of p0/t0/k10")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "0x3 read 0x2's version of p0/t0/k20")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "0x3 read p0/t0/k30 in version 0x0, which 0x4 overwrote")) << c.problem;
  EXPECT_TRUE(mentions(c.problem, "a phantom")) << c.problem;
  // T4 saw 120: T1, T2, T3, T4.
  std::vector<CommittedTxn> serial = h;
  serial[3].reads.push_back({120, 1});
  EXPECT_TRUE(check_history(serial, finals, true).ok);
}

TEST(HistoryCheck, InsertsNeedAbsentRowsAndUpdatesPresentOnes) {
  const HistoryCheck twice = check_history({txn(1, {}, {insert(10, 0)}), txn(2, {}, {insert(10, 1)})}, {{10, 2}}, true);
  EXPECT_FALSE(twice.ok);
  EXPECT_TRUE(mentions(twice.problem, "row presence: transaction 0x2 inserted record p0/t0/k10 in version 0x1, which "
                                      "was present"))
      << twice.problem;
  const HistoryCheck gone = check_history({txn(1, {}, {remove(10, 0)}), txn(2, {}, {update(10, 1)})}, {{10, 2}}, true);
  EXPECT_FALSE(gone.ok);
  EXPECT_TRUE(mentions(gone.problem, "row presence")) << gone.problem;
  EXPECT_TRUE(
      check_history({txn(1, {}, {insert(10, 0)}), txn(2, {}, {update(10, 1)}), txn(3, {}, {remove(10, 2)})}, {{10, 3}}, true)
          .ok);
}

TEST(HistoryCheck, FindsWrongFinalState) {
  const std::vector<CommittedTxn> h = {txn(1, {}, {update(10, 0)})};
  EXPECT_TRUE(check_history(h, {{10, 1}}, true).ok);
  EXPECT_FALSE(check_history(h, {}, true).ok);                   // the write was lost
  EXPECT_FALSE(check_history(h, {{10, 1}, {11, 9}}, true).ok);   // an uncommitted write survived
  const HistoryCheck c = check_history(h, {{10, 5}}, true);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "final state: record p0/t0/k10 ends in version 0x5, but its committed writes end in "
                                  "0x1"))
      << c.problem;
}

TEST(HistoryCheck, RejectsDuplicateIds) {
  EXPECT_FALSE(check_history({txn(1, {}, {}), txn(1, {}, {})}, {}, true).ok);
}

TEST(HistoryCheck, FindsACommitThatAParticipantVotedAgainst) {
  const std::vector<CommittedTxn> h = {txn(5, {}, {update(10, 0), update(20, 0)})};
  const std::vector<RecordVersion> finals = {{10, 5}, {20, 5}};
  const HistoryCheck c = check_history(h, finals, true, {{5, 1, true, true}, {5, 2, false, true}});
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(mentions(c.problem, "2PC atomic commitment: lock agent rank 2 voted no on transaction 0x5, which then "
                                  "committed"))
      << c.problem;
  // A no that aborted the attempt, then a retry under the same id that every participant agreed to.
  EXPECT_TRUE(check_history(h, finals, true, {{5, 2, false, false}, {5, 1, true, true}, {5, 2, true, true}}).ok);
}

TEST(TxnHistory, EncodingRoundTrips) {
  const std::vector<CommittedTxn> h = {txn(5, {{1, 0}, {2, 3}}, {insert(1, 0), remove(4, 2)}, {{7, 9}}), txn(6, {}, {})};
  std::vector<std::uint64_t> words;
  for (const auto& t : h) append_encoded(t, words);
  const auto back = decode_history(words);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].id, 5u);
  ASSERT_EQ(back[0].reads.size(), 2u);
  EXPECT_EQ(back[0].reads[1].version, 3u);
  ASSERT_EQ(back[0].writes.size(), 2u);
  EXPECT_EQ(back[0].writes[0].kind, WriteKind::insert);
  EXPECT_EQ(back[0].writes[1].kind, WriteKind::remove);
  EXPECT_EQ(back[0].writes[1].version, 2u);
  ASSERT_EQ(back[0].range_reads.size(), 1u);
  EXPECT_EQ(back[0].range_reads[0].last, 9u);
  EXPECT_EQ(back[1].id, 6u);
  words.pop_back();
  words.push_back(7);  // claims a range that is not there
  EXPECT_ANY_THROW(decode_history(words));
  std::vector<std::uint64_t> bad_kind;
  append_encoded(txn(8, {}, {update(1, 0)}), bad_kind);
  bad_kind[6] = 3;
  EXPECT_ANY_THROW(decode_history(bad_kind));

  std::vector<std::uint64_t> votes;
  append_encoded(ParticipantVote{9, 3, false, true}, votes);
  const auto v = decode_votes(votes);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].agent, 3);
  EXPECT_FALSE(v[0].voted_yes);
  EXPECT_TRUE(v[0].told_to_commit);
  votes.pop_back();
  EXPECT_ANY_THROW(decode_votes(votes));
}

}  // namespace
}  // namespace hpcdb
