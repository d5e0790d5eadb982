#include "hpcdb/storage/batch_messages.hpp"

#include <gtest/gtest.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

QueryBatch sample_batch() {
  QueryBatch b;
  b.table = 3;
  b.engine = 2;
  b.engine_batch = 77;
  StorageQuery select;
  select.id = 5;
  const std::int64_t set[] = {4, 9, 200};
  select.predicates = {Predicate::between(1, -3, 8), Predicate::in(2, set)};
  select.projection = {0, 4};
  StorageQuery lookup;
  lookup.id = 8;
  lookup.kind = QueryKind::lookup;
  lookup.key = 123456789;
  lookup.projection = {1};
  StorageQuery update;
  update.id = 11;
  update.kind = QueryKind::update;
  update.key = 42;
  update.update_column = 6;
  update.update_value = -7;
  b.queries = {select, lookup, update};
  return b;
}

TEST(BatchMessages, QueryBatchRoundTrip) {
  const QueryBatch b = sample_batch();
  const QueryBatch c = decode_query_batch_message(encode_query_batch_message(b));
  EXPECT_EQ(c.table, 3u);
  EXPECT_EQ(c.engine, 2u);
  EXPECT_EQ(c.engine_batch, 77u);
  ASSERT_EQ(c.queries.size(), 3u);
  EXPECT_EQ(c.queries[0].predicates.size(), 2u);
  EXPECT_TRUE(c.queries[0].predicates[1].matches(200));
  EXPECT_FALSE(c.queries[0].predicates[1].matches(5));
  EXPECT_EQ(c.queries[0].projection, (std::vector<std::uint16_t>{0, 4}));
  EXPECT_EQ(c.queries[1].kind, QueryKind::lookup);
  EXPECT_EQ(c.queries[1].key, 123456789);
  EXPECT_EQ(c.queries[2].update_value, -7);
  QueryBatch empty;
  EXPECT_TRUE(decode_query_batch_message(encode_query_batch_message(empty)).queries.empty());
}

TEST(BatchMessages, MalformedQueryBatchesAreErrors) {
  std::vector<std::byte> bytes = encode_query_batch_message(sample_batch());
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{5}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_THROW(decode_query_batch_message(std::span(bytes.data(), cut)), Error) << cut;
  }
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_THROW(decode_query_batch_message(longer), Error);
  std::vector<std::byte> magic = bytes;
  magic[1] = std::byte{0};
  EXPECT_THROW(decode_query_batch_message(magic), Error);
  std::vector<std::byte> kind = bytes;
  kind[0] = std::byte{99};
  EXPECT_THROW(decode_query_batch_message(kind), Error);
}

TEST(BatchMessages, StartBatchRoundTripAndChecks) {
  TableSchema schema{"t", {{"a", ColumnType::i32, 0}, {"b", ColumnType::u8, 0}, {"c", ColumnType::text, 5}}};
  StartBatch s;
  s.table = 1;
  s.fragment = 2;
  s.batch = 9;
  s.engine = 4;
  s.engine_batches = {3};
  s.queries = {10, 20, 30};
  s.layout = ResultLayout::general;
  s.record = RecordLayout::of(schema, {2, 0}, s.queries.size());
  const StartBatch t = decode_start_batch(encode_start_batch(s));
  EXPECT_EQ(t.queries, s.queries);
  EXPECT_EQ(t.record.columns, (std::vector<std::uint16_t>{0, 2}));
  EXPECT_EQ(t.record.record_bytes, 9u);
  EXPECT_EQ(t.record.bitset_bytes, 8u);
  EXPECT_EQ(t.layout, ResultLayout::general);
  std::vector<std::byte> bytes = encode_start_batch(s);
  bytes.pop_back();
  EXPECT_THROW(decode_start_batch(bytes), Error);
  s.record.record_bytes = 100;  // does not add up
  EXPECT_THROW(decode_start_batch(encode_start_batch(s)), Error);
  EXPECT_THROW(RecordLayout::of(schema, {7}, 1), Error);
  EXPECT_THROW(message_kind({}), Error);
}

TEST(BatchMessages, NoticesRoundTrip) {
  const EngineNotice n = decode_notice(encode_notice({BatchMessage::engine_done, 12}));
  EXPECT_EQ(n.kind, BatchMessage::engine_done);
  EXPECT_EQ(n.engine, 12u);
}

TEST(Predicates, SetsBecomeRangesWhenContiguous) {
  const std::int64_t contiguous[] = {5, 3, 4, 4, 6};
  const Predicate p = Predicate::in(0, contiguous);
  EXPECT_EQ(p.kind, Predicate::Kind::range);
  EXPECT_EQ(p.low, 3);
  EXPECT_EQ(p.high, 6);
  const std::int64_t sparse[] = {1, 100, 64, 65};
  const Predicate q = Predicate::in(0, sparse);
  EXPECT_EQ(q.kind, Predicate::Kind::set);
  EXPECT_EQ(q.cardinality(), 4u);
  EXPECT_TRUE(q.matches(64));
  EXPECT_FALSE(q.matches(63));
  EXPECT_FALSE(q.matches(101));
  EXPECT_TRUE(Predicate::in(0, {}).empty());
  EXPECT_FALSE(Predicate::none(0).matches(0));
  EXPECT_EQ(Predicate::none(0).cardinality(), 0u);
}

}  // namespace
}  // namespace hpcdb
