// Storage engines and query engines over the message layer on 1-4 ranks, in
// both deployments and with lineorder split over storage engines: every
// engine's answers to the 13 SSB queries and to random ones equal an
// independent evaluation of the plans on the generated tables; a query
// engine that connects late is served; point lookups find the generated
// rows, and the scans see updates from their next cycle on.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/query/query_engine.hpp"
#include "hpcdb/query/ssb_catalog.hpp"
#include "hpcdb/query/ssb_queries.hpp"
#include "hpcdb/storage/ssb_tables.hpp"
#include "hpcdb/storage/storage_engine.hpp"
#include "net/test_cluster.hpp"
#include "query/star_reference.hpp"

namespace hpcdb::testing {
namespace {

struct Layout {
  DeploymentMode mode = DeploymentMode::decoupled;
  int storage_engines = 1;
  std::string placement;
  int late_engine = -1;
  bool semi_join_filters = true;
  ResultLayout layout = ResultLayout::tuple_free;
  int kv_table = static_cast<int>(ssb::TableId::customer);
};

// Runs `work` on every query engine (with the storage engines serving) and
// tears everything down; every rank calls it.
void run_deployment(const Layout& s, const ssb::Generator& generator, const std::function<void(QueryEngine&)>& work) {
  const Cluster& cluster = testing::cluster();
  const Deployment deployment(s.mode, cluster.size(), s.storage_engines);
  std::vector<std::string> tables;
  for (int t = 0; t < ssb::kTables; ++t) tables.emplace_back(ssb::table_name(static_cast<ssb::TableId>(t)));
  const Placement placement = Placement::parse(s.placement, tables, s.storage_engines);
  const Catalog catalog = ssb::catalog(generator);
  MessageLayerConfig layer_config;
  layer_config.stall_timeout = 60;
  MessageLayer layer(cluster, layer_config);
  StorageConfig storage_config;
  storage_config.scan.layout = s.layout;
  storage_config.scan.piece_bytes = 16 << 10;
  storage_config.kv_table = s.kv_table;
  storage_config.reply_timeout = 60;
  storage_config.connect_timeout = 60;
  QueryEngineConfig engine_config;
  engine_config.star.semi_join_filters = s.semi_join_filters;
  engine_config.kv_table = s.kv_table;
  const int rank = cluster.rank();
  std::unique_ptr<StorageEngine> storage;
  std::unique_ptr<QueryEngine> engine;
  QueryEngine* local = nullptr;
  if (deployment.runs_storage(rank)) {
    LocalReceiver to_engine;
    if (deployment.runs_query(rank)) to_engine = [&local](int src, std::unique_ptr<ReceivedPayload> m) { local->receive(src, std::move(m)); };
    storage = std::make_unique<StorageEngine>(layer, deployment, placement, catalog, storage_config, rank, to_engine);
  }
  if (deployment.runs_query(rank)) {
    std::function<void(std::span<const std::byte>)> to_storage;
    if (storage) to_storage = [&storage, rank](std::span<const std::byte> m) { storage->accept(rank, m); };
    engine = std::make_unique<QueryEngine>(layer, deployment, placement, catalog, engine_config,
                                           deployment.engine_of_rank(rank), ssb::render_value, to_storage);
    local = engine.get();
  }
  MPI_Barrier(cluster.world());
  if (storage) storage->start();
  if (engine) {
    if (engine->engine() == s.late_engine) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (std::chrono::steady_clock::now() < until) {
        if (storage) storage->poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    engine->connect();
    std::atomic<bool> finished{false};
    std::thread worker([&] {
      work(*engine);
      finished = true;
    });
    try {
      while (!finished) {
        engine->tick();
        if (storage) storage->poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    } catch (const std::exception& e) {
      // The worker may wait for answers that will not come: end the test job.
      std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
      std::fflush(stderr);
      std::_Exit(1);
    }
    worker.join();
    engine->disconnect();
  }
  if (storage) {
    storage->serve();
    storage->stop();
  }
  layer.close();
}

// Submits `queries` to the engine's star operator at once and waits for every answer.
std::vector<std::vector<ResultRow>> answer_all(QueryEngine& engine, const std::vector<ssb::SsbQuery>& queries) {
  std::mutex mutex;
  std::condition_variable done;
  std::size_t left = queries.size();
  std::vector<std::vector<ResultRow>> answers(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) {
    engine.star().submit({ssb::plan_of(queries[i]), [&, i](std::vector<ResultRow> rows) {
                            std::lock_guard lock(mutex);
                            answers[i] = std::move(rows);
                            --left;
                            done.notify_all();
                          },
                          {}, 0});
  }
  std::unique_lock lock(mutex);
  done.wait(lock, [&] { return left == 0; });
  return answers;
}

class Engines : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    generator = std::make_unique<ssb::Generator>(ssb::scale_of(0.02), 11);
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

  static std::vector<ssb::SsbQuery> queries_for(int engine) {
    std::vector<ssb::SsbQuery> q;
    for (int i = 0; i < ssb::kQueryNames; ++i) q.push_back({static_cast<ssb::QueryName>(i), ssb::standard_parameters(static_cast<ssb::QueryName>(i))});
    CounterRng rng(77, static_cast<std::uint64_t>(engine), 0);
    for (int i = 0; i < 30; ++i) {
      const auto name = static_cast<ssb::QueryName>(rng.next_u64() % ssb::kQueryNames);
      q.push_back({name, ssb::random_parameters(name, rng)});
    }
    return q;
  }

  static void check_answers(const Layout& s) {
    run_deployment(s, *generator, [](QueryEngine& engine) {
      std::map<std::uint32_t, const ColumnTable*> tables;
      for (const auto& [id, t] : whole) tables[id] = t.get();
      const std::vector<ssb::SsbQuery> queries = queries_for(engine.engine());
      // Two rounds: the second batch runs on warm engines.
      for (int round = 0; round < 2; ++round) {
        const auto answers = answer_all(engine, queries);
        for (std::size_t i = 0; i < queries.size(); ++i) {
          const auto expected = reference_answer(ssb::plan_of(queries[i]), tables, ssb::render_value);
          EXPECT_TRUE(sorted_rows(answers[i]) == sorted_rows(expected))
              << "engine " << engine.engine() << ": " << ssb::label(queries[i].name) << " "
              << ssb::describe_parameters(queries[i]);
        }
      }
      EXPECT_GE(engine.stats().star.cycles, 2u);
    });
  }

  static std::unique_ptr<ssb::Generator> generator;
  static std::map<std::uint32_t, std::unique_ptr<ColumnTable>> whole;
};

std::unique_ptr<ssb::Generator> Engines::generator;
std::map<std::uint32_t, std::unique_ptr<ColumnTable>> Engines::whole;

TEST_F(Engines, LocalDeploymentAnswersLikeTheReference) {
  Layout s;
  s.mode = DeploymentMode::local;
  s.storage_engines = cluster().size();
  check_answers(s);
}

TEST_F(Engines, DecoupledDeploymentAnswersLikeTheReference) {
  if (cluster().size() < 2) GTEST_SKIP() << "decoupled needs a query-engine rank beside the storage rank";
  Layout s;
  check_answers(s);
  s.semi_join_filters = false;
  s.layout = ResultLayout::general;
  check_answers(s);
}

TEST_F(Engines, LineorderSplitOverStorageEnginesAndALateEngine) {
  if (cluster().size() < 3) GTEST_SKIP() << "needs two storage ranks and a query-engine rank";
  Layout s;
  s.storage_engines = 2;
  s.placement = "customer=1;part=0,1";
  s.late_engine = 0;
  check_answers(s);
}

TEST_F(Engines, PointLookupsAndUpdatesReachTheScans) {
  Layout s;
  s.mode = cluster().size() == 1 ? DeploymentMode::local : DeploymentMode::decoupled;
  const int engines = s.mode == DeploymentMode::local ? 1 : cluster().size() - 1;
  run_deployment(s, *generator, [engines](QueryEngine& engine) {
    LookupOperator& lookups = *engine.lookups();
    std::mutex mutex;
    std::condition_variable cv;
    auto point = [&](PointRequest r) {
      std::optional<std::vector<std::int64_t>> result;
      bool done = false;
      r.done = [&](std::optional<std::vector<std::int64_t>> row) {
        std::lock_guard lock(mutex);
        result = std::move(row);
        done = true;
        cv.notify_all();
      };
      lookups.submit(std::move(r));
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return done; });
      return result;
    };
    const std::vector<std::uint16_t> columns{ssb::c::custkey, ssb::c::city, ssb::c::mktsegment};
    for (std::int64_t key : {1, 17, 600}) {
      const auto row = point({key, false, 0, 0, columns, {}});
      ASSERT_TRUE(row.has_value());
      const ssb::CustomerRow expected = generator->customer(key);
      EXPECT_EQ((*row)[0], key);
      EXPECT_EQ((*row)[1], expected.city);
    }
    EXPECT_FALSE(point({100000, false, 0, 0, columns, {}}).has_value());
    // Each engine moves its own customer (engine + 2) to market segment 4,
    // then reads it back by key and by a scan.
    const std::int64_t mine = engine.engine() + 2;
    point({mine, true, ssb::c::mktsegment, 4, {}, {}});
    EXPECT_EQ((*point({mine, false, 0, 0, columns, {}}))[2], 4);
    StarPlan plan;  // customers of segment 4 among mine, via the scan backend (as a dimension of lineorder)
    plan.fact_table = static_cast<std::uint32_t>(ssb::TableId::lineorder);
    plan.joins = {{static_cast<std::uint32_t>(ssb::TableId::customer), ssb::c::custkey, ssb::lo::custkey,
                   {Predicate::equals(ssb::c::mktsegment, 4), Predicate::between(ssb::c::custkey, mine, mine)}, {ssb::c::custkey}}};
    plan.group_by = {{0, ssb::c::custkey}};
    plan.measure_columns = {ssb::lo::revenue};
    plan.output = {{OutputColumn::Kind::group, 0, "c_custkey"}, {OutputColumn::Kind::measure, 0, "revenue"}};
    std::vector<ResultRow> rows;
    {
      std::mutex m;
      std::condition_variable c;
      bool got = false;
      engine.star().submit({plan, [&](std::vector<ResultRow> r) {
                              std::lock_guard lock(m);
                              rows = std::move(r);
                              got = true;
                              c.notify_all();
                            },
                            {}, 0});
      std::unique_lock lock(m);
      c.wait(lock, [&] { return got; });
    }
    // Customer `mine` (not a multiple of 3 when engine + 2 is not) has orders.
    if (mine % 3 != 0) {
      ASSERT_EQ(rows.size(), 1u);
      EXPECT_EQ(rows[0][0].number, mine);
    }
    (void)engines;
  });
}

}  // namespace
}  // namespace hpcdb::testing
