// The query engine's batch cycle against the storage engine's stub servers
// in one process, messages handed over by the test in a shuffled order
// (START BATCH after its pieces, fragments interleaved): the 13 SSB queries
// with the published constants and many random ones, with and without
// semi-join filters and tuple-free results, lineorder in three fragments,
// each answer compared with an independent evaluation of its plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>

#include "hpcdb/data/ssb_generator.hpp"
#include "hpcdb/query/ssb_catalog.hpp"
#include "hpcdb/query/ssb_queries.hpp"
#include "hpcdb/query/star_batch_cycle.hpp"
#include "hpcdb/storage/deployment.hpp"
#include "hpcdb/storage/scan_server.hpp"
#include "hpcdb/storage/ssb_tables.hpp"
#include "query/star_reference.hpp"
#include "storage/collecting_channel.hpp"

namespace hpcdb::testing {
namespace {

class VectorPayload final : public ReceivedPayload {
 public:
  explicit VectorPayload(std::vector<std::byte> b) : bytes_(std::move(b)) {}
  std::span<const std::byte> bytes() const override { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

class EventQueue final : public BatchConsumer {
 public:
  void consume(BatchEvent e) override { events.push_back(std::move(e)); }
  std::vector<BatchEvent> events;
};

// Storage side: one scan server per (table, fragment), at a made-up rank.
struct FakeStorage {
  struct Server {
    int rank;
    std::unique_ptr<TableFragment> fragment;
    testing::CollectingChannel channel;
    std::unique_ptr<ScanServer> scan;
    std::vector<QueryBatch> pending;
  };

  FakeStorage(const ssb::Generator& g, ScanServerConfig config, int lineorder_fragments) {
    for (int t = 0; t < ssb::kTables; ++t) {
      const auto table = static_cast<ssb::TableId>(t);
      const int fragments = table == ssb::TableId::lineorder ? lineorder_fragments : 1;
      for (int f = 0; f < fragments; ++f) {
        const FragmentKeys keys = fragment_keys(ssb::table_keys(table, g.scale()), f, fragments);
        auto s = std::make_unique<Server>();
        s->rank = 10 + f;
        s->fragment = std::make_unique<TableFragment>(static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(f),
                                                      ssb::load_fragment(g, table, keys.first, keys.end));
        Server* raw = s.get();
        s->scan = std::make_unique<ScanServer>(*s->fragment, config, [raw](std::uint32_t) -> ResultChannel& { return raw->channel; });
        servers.push_back(std::move(s));
      }
      ranks[static_cast<std::uint32_t>(t)].clear();
      for (int f = 0; f < fragments; ++f) ranks[static_cast<std::uint32_t>(t)].push_back(10 + f);
    }
  }

  void accept(int rank, std::span<const std::byte> message) {
    QueryBatch b = decode_query_batch_message(message);
    for (auto& s : servers) {
      if (s->rank == rank && s->fragment->table == b.table) {
        s->pending.push_back(std::move(b));
        return;
      }
    }
    FAIL() << "no server for table " << b.table << " at rank " << rank;
  }

  // Runs every pending cycle and hands what came out to the stub clients in a shuffled order.
  void pump(std::map<std::uint32_t, StubClient*>& stubs, std::mt19937_64& rng) {
    std::vector<std::pair<int, std::vector<std::byte>>> out;
    for (auto& s : servers) {
      if (s->pending.empty()) continue;
      s->scan->run_cycle(s->pending);
      s->pending.clear();
      for (auto& m : s->channel.messages) out.emplace_back(s->rank, std::move(m.bytes));
      s->channel.messages.clear();
    }
    std::shuffle(out.begin(), out.end(), rng);
    for (auto& [rank, bytes] : out) {
      std::uint32_t table = 0;
      if (message_kind(bytes) == BatchMessage::start_batch) {
        table = decode_start_batch(bytes).table;
      } else {
        ResultPieceHeader h;
        std::memcpy(&h, bytes.data(), sizeof(h));
        table = h.table;
      }
      stubs.at(table)->receive(rank, std::make_unique<VectorPayload>(std::move(bytes)));
    }
  }

  std::vector<std::unique_ptr<Server>> servers;
  std::map<std::uint32_t, std::vector<int>> ranks;
};

struct Answer {
  ssb::SsbQuery query;
  std::vector<ResultRow> rows;
};

std::vector<Answer> run_batch(FakeStorage& storage, const std::vector<ssb::SsbQuery>& queries, bool semi_join_filters,
                              std::uint64_t seed) {
  std::map<std::uint32_t, std::unique_ptr<StubClient>> owned;
  std::map<std::uint32_t, StubClient*> stubs;
  for (const auto& [table, ranks] : storage.ranks) {
    owned[table] = std::make_unique<StubClient>(table, 0, ranks, [&](int rank, std::span<const std::byte> m, Priority) {
      storage.accept(rank, m);
    });
    stubs[table] = owned[table].get();
  }
  std::vector<Answer> answers(queries.size());
  std::vector<StarRequest> requests;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    answers[i].query = queries[i];
    requests.push_back({ssb::plan_of(queries[i]), [&answers, i](std::vector<ResultRow> rows) { answers[i].rows = std::move(rows); },
                        {}, 0});
  }
  QueryId next = 0;
  StarBatchCycle cycle(requests, [&] { return next++; });
  EventQueue events;
  std::mt19937_64 rng(seed);
  const OwedFragments dims = cycle.send_dimension_selections(stubs, events);
  storage.pump(stubs, rng);
  std::size_t done = 0;
  for (const BatchEvent& e : events.events) {
    cycle.take_dimension_event(e);
    done += e.kind == BatchEvent::Kind::fragment_done ? 1 : 0;
  }
  EXPECT_EQ(done, dims.size());
  events.events.clear();
  const OwedFragments facts = cycle.send_fact_selection(stubs, events, semi_join_filters);
  storage.pump(stubs, rng);
  done = 0;
  for (const BatchEvent& e : events.events) {
    cycle.take_fact_event(e);
    done += e.kind == BatchEvent::Kind::fragment_done ? 1 : 0;
  }
  EXPECT_EQ(done, facts.size());
  cycle.finish(ssb::render_value);
  for (const auto& [table, stub] : stubs) EXPECT_EQ(stub->pending(), 0u) << "table " << table;
  return answers;
}

class StarBatchCycleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    generator = std::make_unique<ssb::Generator>(ssb::scale_of(0.02), 5);
    for (int t = 0; t < ssb::kTables; ++t) {
      const auto table = static_cast<ssb::TableId>(t);
      whole[static_cast<std::uint32_t>(t)] =
          std::make_unique<ColumnTable>(ssb::load_fragment(*generator, table, 0, ssb::table_keys(table, generator->scale())));
    }
  }
  static void TearDownTestSuite() {
    whole.clear();
    generator.reset();
  }

  static void check(const std::vector<Answer>& answers) {
    std::map<std::uint32_t, const ColumnTable*> tables;
    for (const auto& [id, t] : whole) tables[id] = t.get();
    for (const Answer& a : answers) {
      const std::vector<ResultRow> expected = reference_answer(ssb::plan_of(a.query), tables, ssb::render_value);
      EXPECT_TRUE(sorted_rows(a.rows) == sorted_rows(expected))
          << ssb::label(a.query.name) << ": " << ssb::describe_parameters(a.query) << " (" << a.rows.size() << " rows, "
          << expected.size() << " expected)";
    }
  }

  static std::unique_ptr<ssb::Generator> generator;
  static std::map<std::uint32_t, std::unique_ptr<ColumnTable>> whole;
};

std::unique_ptr<ssb::Generator> StarBatchCycleTest::generator;
std::map<std::uint32_t, std::unique_ptr<ColumnTable>> StarBatchCycleTest::whole;

std::vector<ssb::SsbQuery> standard_queries() {
  std::vector<ssb::SsbQuery> q;
  for (int i = 0; i < ssb::kQueryNames; ++i) q.push_back({static_cast<ssb::QueryName>(i), ssb::standard_parameters(static_cast<ssb::QueryName>(i))});
  return q;
}

std::vector<ssb::SsbQuery> random_queries(std::size_t n, std::uint64_t seed) {
  CounterRng rng(seed, 1, 0);
  std::vector<ssb::SsbQuery> q;
  for (std::size_t i = 0; i < n; ++i) {
    const auto name = static_cast<ssb::QueryName>(rng.next_u64() % ssb::kQueryNames);
    q.push_back({name, ssb::random_parameters(name, rng)});
  }
  return q;
}

TEST_F(StarBatchCycleTest, StandardQueriesEveryVariant) {
  for (bool filters : {true, false}) {
    for (ResultLayout layout : {ResultLayout::tuple_free, ResultLayout::general}) {
      ScanServerConfig config;
      config.layout = layout;
      config.piece_bytes = 8192;
      FakeStorage storage(*generator, config, 3);
      check(run_batch(storage, standard_queries(), filters, 1));
    }
  }
}

TEST_F(StarBatchCycleTest, RandomQueriesInBatchesOfOneToTwoHundred) {
  ScanServerConfig config;
  config.piece_bytes = 64 << 10;
  config.workers = 2;
  FakeStorage storage(*generator, config, 2);
  std::uint64_t seed = 7;
  for (std::size_t n : {1, 2, 63, 64, 65, 200}) {
    ++seed;
    check(run_batch(storage, random_queries(n, seed), n % 2 == 0, seed));
  }
}

TEST_F(StarBatchCycleTest, QueriesMatchingNothing) {
  ScanServerConfig config;
  FakeStorage storage(*generator, config, 1);
  std::vector<ssb::SsbQuery> queries = standard_queries();
  queries[0].parameters.year = 1999;                // Q1.1: no orders that year
  queries[5].parameters.supplier_region = 0;
  queries[5].parameters.brand_low = queries[5].parameters.brand_high = 999;
  queries[9].parameters.month_code = 83;            // Q3.4: Dec1998, after the last order
  const std::vector<Answer> answers = run_batch(storage, queries, true, 3);
  check(answers);
  ASSERT_EQ(answers[0].rows.size(), 1u);
  EXPECT_EQ(answers[0].rows[0][0].kind, ResultValue::Kind::null);  // SUM over no rows
  EXPECT_TRUE(answers[9].rows.empty());
}

}  // namespace
}  // namespace hpcdb::testing
