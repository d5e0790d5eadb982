// The stub servers' batch cycles on one thread: what each engine receives,
// in what order, for batches from several engines, with several workers,
// after propagated updates, and for point queries.
#include "hpcdb/storage/scan_server.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/storage/kv_server.hpp"
#include "storage/collecting_channel.hpp"

namespace hpcdb {
namespace {

ColumnTable numbers(std::size_t n) {
  ColumnTable t({"n", {{"key", ColumnType::i32, 0}, {"v", ColumnType::u16, 0}}});
  t.add_rows(n);
  for (std::size_t r = 0; r < n; ++r) {
    t.set_value(r, 0, static_cast<std::int64_t>(r + 1));
    t.set_value(r, 1, static_cast<std::int64_t>(r % 100));
  }
  return t;
}

StorageQuery select(QueryId id, std::int64_t low, std::int64_t high) {
  StorageQuery q;
  q.id = id;
  q.predicates = {Predicate::between(1, low, high)};
  q.projection = {0};
  return q;
}

std::uint64_t tuples_of(const std::vector<testing::Delivered>& messages) {
  std::uint64_t n = 0;
  for (std::size_t i = 1; i < messages.size(); ++i) n += messages[i].header().tuples;
  return n;
}

struct Server {
  explicit Server(std::size_t rows, unsigned workers, ResultLayout layout = ResultLayout::tuple_free)
      : fragment(7, 0, numbers(rows)), channels(3) {
    config.workers = workers;
    config.layout = layout;
    config.piece_bytes = 256;
    server = std::make_unique<ScanServer>(fragment, config, [this](std::uint32_t e) -> ResultChannel& { return channels.at(e); });
  }
  TableFragment fragment;
  ScanServerConfig config;
  std::vector<testing::CollectingChannel> channels;
  std::unique_ptr<ScanServer> server;
};

TEST(ScanServer, OneScanAnswersEveryEngineInOrder) {
  for (unsigned workers : {1u, 3u}) {
    Server s(20000, workers);
    std::vector<QueryBatch> batches(3);
    batches[0] = {7, 0, 1, {select(1, 0, 9), select(4, 50, 50)}};
    batches[1] = {7, 2, 5, {select(2, 99, 99)}};
    batches[2] = {7, 0, 2, {select(7, 200, 300)}};  // matches nothing
    s.server->run_cycle(batches);
    EXPECT_TRUE(s.channels[1].messages.empty());
    const auto& e0 = s.channels[0].messages;
    ASSERT_GE(e0.size(), 2u);
    const StartBatch start = decode_start_batch(e0[0].bytes);
    EXPECT_EQ(start.engine_batches, (std::vector<std::uint64_t>{1, 2}));
    EXPECT_EQ(start.queries, (std::vector<QueryId>{1, 4, 7}));
    EXPECT_EQ(tuples_of(e0), 2200u);  // v in 0..9 or v = 50: 11 of every 100 rows
    for (std::size_t i = 1; i < e0.size(); ++i) {
      EXPECT_EQ(e0[i].header().sequence, i);
      EXPECT_EQ(e0[i].header().last != 0, i + 1 == e0.size());
    }
    EXPECT_EQ(tuples_of(s.channels[2].messages), 200u);
    const ScanServerStats stats = s.server->stats();
    EXPECT_EQ(stats.cycles, 1u);
    EXPECT_EQ(stats.queries, 4u);
    EXPECT_EQ(stats.scan.rows, 20000u);
    EXPECT_EQ(stats.results.tuples, 2400u);
    EXPECT_EQ(stats.results.tuple_section_saved, 2400u * sizeof(TupleEntry));
  }
}

TEST(ScanServer, ZeroQueryBatchGetsStartAndEnd) {
  Server s(100, 1);
  std::vector<QueryBatch> batches{{7, 1, 3, {}}};
  s.server->run_cycle(batches);
  const auto& m = s.channels[1].messages;
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(decode_start_batch(m[0].bytes).queries.empty());
  EXPECT_EQ(m[1].header().tuples, 0u);
  EXPECT_EQ(m[1].header().last, 1);
}

TEST(ScanServer, GeneralLayoutSendsTheTupleSection) {
  Server s(1000, 1, ResultLayout::general);
  std::vector<QueryBatch> batches{{7, 0, 1, {select(1, 0, 4)}}};
  s.server->run_cycle(batches);
  const ScanServerStats stats = s.server->stats();
  EXPECT_EQ(stats.results.tuples, 50u);
  EXPECT_EQ(stats.results.tuple_section_bytes, 50u * sizeof(TupleEntry));
  EXPECT_EQ(stats.results.tuple_section_saved, 0u);
}

TEST(ScanServer, RefusesPointQueriesAndKvServerAnswersThem) {
  Server s(1000, 1);
  StorageQuery lookup;
  lookup.id = 3;
  lookup.kind = QueryKind::lookup;
  lookup.key = 10;
  std::vector<QueryBatch> wrong{{7, 0, 1, {lookup}}};
  EXPECT_THROW(s.server->run_cycle(wrong), Error);

  s.fragment.master = std::make_unique<KvStore>(s.fragment.rows, PrimaryKey{0, -1, 1});
  KvServer kv(s.fragment, Priority::latency, [&](std::uint32_t e) -> ResultChannel& { return s.channels.at(e); });
  StorageQuery update;
  update.id = 4;
  update.kind = QueryKind::update;
  update.key = 10;
  update.update_column = 1;
  update.update_value = 777;
  StorageQuery missing = lookup;
  missing.id = 5;
  missing.key = 5000;
  lookup.projection = {1};
  std::vector<QueryBatch> points{{7 + kKeyValueTableOffset, 2, 1, {update, lookup, missing}}};
  kv.run_cycle(points);
  const auto& m = s.channels[2].messages;
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].priority, Priority::latency);
  EXPECT_EQ(decode_start_batch(m[0].bytes).table, 7 + kKeyValueTableOffset);  // answers of the key-value backend
  const ResultPieceHeader h = m[1].header();
  EXPECT_EQ(h.tuples, 1u);  // the lookup of key 10 found it, key 5000 did not
  EXPECT_EQ(h.layout, ResultLayout::general);
  const ResultPieceView view(m[1].bytes);
  EXPECT_EQ(view.extra(0), 10);
  std::uint16_t v;
  std::memcpy(&v, view.record(0, 8), 2);
  EXPECT_EQ(v, 777);  // the update came first in the batch
  EXPECT_EQ(kv.stats().found, 1u);

  // The next scan sees the update (v = 777 at key 10).
  std::vector<QueryBatch> scan{{7, 0, 2, {select(9, 777, 777)}}};
  s.channels[0].messages.clear();
  s.server->run_cycle(scan);
  EXPECT_EQ(tuples_of(s.channels[0].messages), 1u);
  EXPECT_EQ(s.server->stats().updates_applied, 1u);
}

}  // namespace
}  // namespace hpcdb
