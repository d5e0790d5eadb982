// The stub client: whole batches out to every fragment, results back in
// sequence order whatever order they arrive in, handed to the consumer of
// the engine batch START BATCH names, the batch forgotten after END BATCH;
// duplicates, strangers and malformed pieces are errors.
#include "hpcdb/query/stub_client.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hpcdb/core/error.hpp"
#include "hpcdb/storage/result_writer.hpp"
#include "storage/collecting_channel.hpp"

namespace hpcdb::testing {
namespace {

class Bytes final : public ReceivedPayload {
 public:
  explicit Bytes(std::vector<std::byte> b) : bytes_(std::move(b)) {}
  std::span<const std::byte> bytes() const override { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

class Recorder final : public BatchConsumer {
 public:
  void consume(BatchEvent e) override { events.push_back(std::move(e)); }
  std::vector<BatchEvent> events;
};

// The messages of one batch for engine 0: START, then `tuples` tuples of one
// 4-byte column in pieces of `per_piece`.
std::vector<std::vector<std::byte>> batch_messages(std::uint32_t table, std::uint32_t fragment, std::uint64_t batch,
                                                   std::vector<std::uint64_t> engine_batches, std::size_t tuples,
                                                   std::size_t per_piece) {
  TableSchema schema{"t", {{"v", ColumnType::i32, 0}}};
  CollectingChannel channel;
  ResultStream stream(channel, Priority::best_effort);
  StartBatch start{table, fragment, batch, 0, std::move(engine_batches), {1, 2}, ResultLayout::tuple_free,
                   RecordLayout::of(schema, {0}, 2)};
  stream.send_start(start);
  ResultWriter writer(stream, table, fragment, batch, start.record, ResultLayout::tuple_free,
                      sizeof(ResultPieceHeader) + per_piece * start.record.tuple_bytes());
  for (std::size_t i = 0; i < tuples; ++i) {
    std::byte* slot = writer.append();
    const std::uint64_t bits = 1;
    std::memcpy(slot, &bits, 8);
    const auto v = static_cast<std::int32_t>(i);
    std::memcpy(slot + 8, &v, 4);
  }
  writer.flush(true);
  std::vector<std::vector<std::byte>> out;
  for (auto& m : channel.messages) out.push_back(std::move(m.bytes));
  return out;
}

std::vector<std::int32_t> values_in_order(const Recorder& r) {
  std::vector<std::int32_t> v;
  for (const BatchEvent& e : r.events) {
    if (e.kind != BatchEvent::Kind::piece) continue;
    const ResultPieceView piece(e.payload->bytes());
    for (std::size_t t = 0; t < piece.tuples(); ++t) {
      std::int32_t x;
      std::memcpy(&x, piece.record(t, 8), 4);
      v.push_back(x);
    }
  }
  return v;
}

TEST(StubClient, SendsWholeBatchesToEveryFragment) {
  std::vector<std::pair<int, QueryBatch>> sent;
  StubClient stub(3, 1, {4, 7}, [&](int rank, std::span<const std::byte> m, Priority) {
    sent.emplace_back(rank, decode_query_batch_message(m));
  });
  Recorder r;
  StorageQuery q;
  q.id = 9;
  const std::uint64_t b = stub.send({q, q}, Priority::best_effort, r);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].first, 4);
  EXPECT_EQ(sent[1].first, 7);
  EXPECT_EQ(sent[1].second.engine_batch, b);
  EXPECT_EQ(sent[1].second.engine, 1u);
  EXPECT_EQ(sent[1].second.queries.size(), 2u);
  EXPECT_EQ(stub.pending(), 1u);
}

TEST(StubClient, RestoresOrderWhateverTheArrivalOrder) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 20; ++round) {
    StubClient stub(2, 0, {5, 6}, [](int, std::span<const std::byte>, Priority) {});
    Recorder r;
    const std::uint64_t b = stub.send({}, Priority::best_effort, r);
    auto a = batch_messages(2, 0, 11, {b}, 57, 5);
    auto c = batch_messages(2, 1, 11, {b}, 3, 1);
    std::vector<std::pair<int, std::vector<std::byte>>> all;
    for (auto& m : a) all.emplace_back(5, std::move(m));
    for (auto& m : c) all.emplace_back(6, std::move(m));
    std::shuffle(all.begin(), all.end(), rng);
    for (auto& [rank, m] : all) stub.receive(rank, std::make_unique<Bytes>(std::move(m)));
    EXPECT_EQ(stub.pending(), 0u);
    // Per fragment: START, pieces in order, then done.
    std::vector<std::int32_t> first, second;
    int starts = 0, dones = 0;
    for (const BatchEvent& e : r.events) {
      if (e.kind == BatchEvent::Kind::start) ++starts;
      if (e.kind == BatchEvent::Kind::fragment_done) ++dones;
      if (e.kind != BatchEvent::Kind::piece) continue;
      const ResultPieceView piece(e.payload->bytes());
      for (std::size_t t = 0; t < piece.tuples(); ++t) {
        std::int32_t x;
        std::memcpy(&x, piece.record(t, 8), 4);
        (e.fragment == 0 ? first : second).push_back(x);
      }
    }
    EXPECT_EQ(starts, 2);
    EXPECT_EQ(dones, 2);
    ASSERT_EQ(first.size(), 57u);
    for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], static_cast<std::int32_t>(i));
    EXPECT_EQ(second, (std::vector<std::int32_t>{0, 1, 2}));
  }
}

TEST(StubClient, DuplicatesStrangersAndLiesAreErrors) {
  StubClient stub(2, 0, {5}, [](int, std::span<const std::byte>, Priority) {});
  Recorder r;
  const std::uint64_t b = stub.send({}, Priority::best_effort, r);
  auto m = batch_messages(2, 0, 1, {b}, 10, 2);
  stub.receive(5, std::make_unique<Bytes>(m[0]));
  stub.receive(5, std::make_unique<Bytes>(m[2]));
  EXPECT_THROW(stub.receive(5, std::make_unique<Bytes>(m[2])), Error);  // an early piece twice
  stub.receive(5, std::make_unique<Bytes>(m[1]));
  EXPECT_THROW(stub.receive(5, std::make_unique<Bytes>(m[1])), Error);  // a delivered piece again
  EXPECT_THROW(stub.receive(6, std::make_unique<Bytes>(m[3])), Error);  // from a rank that holds no fragment
  auto other = batch_messages(2, 0, 9, {b + 100}, 1, 1);
  EXPECT_THROW(stub.receive(5, std::make_unique<Bytes>(other[0])), Error);  // a batch this engine never sent
  auto wrong_table = batch_messages(3, 0, 9, {b}, 1, 1);
  EXPECT_THROW(stub.receive(5, std::make_unique<Bytes>(wrong_table[0])), Error);
  std::vector<std::byte> truncated = m[3];
  truncated.resize(truncated.size() - 1);
  EXPECT_THROW(stub.receive(5, std::make_unique<Bytes>(truncated)), Error);
  for (std::size_t i = 3; i < m.size(); ++i) stub.receive(5, std::make_unique<Bytes>(m[i]));
  EXPECT_EQ(stub.pending(), 0u);
  EXPECT_EQ(values_in_order(r).size(), 10u);
  EXPECT_THROW(stub.receive(5, std::make_unique<Bytes>(std::vector<std::byte>{})), Error);
}

TEST(StubClient, OneStorageBatchServesTwoEngineBatches) {
  StubClient stub(2, 0, {5}, [](int, std::span<const std::byte>, Priority) {});
  Recorder first, second;
  const std::uint64_t a = stub.send({}, Priority::best_effort, first);
  const std::uint64_t b = stub.send({}, Priority::best_effort, second);
  for (auto& m : batch_messages(2, 0, 4, {a, b}, 6, 4)) stub.receive(5, std::make_unique<Bytes>(std::move(m)));
  EXPECT_EQ(values_in_order(first).size(), 6u);
  EXPECT_EQ(values_in_order(second).size(), 6u);
  EXPECT_EQ(stub.pending(), 0u);
}

}  // namespace
}  // namespace hpcdb::testing
