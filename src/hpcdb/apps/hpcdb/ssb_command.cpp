#include "hpcdb/apps/hpcdb/ssb_command.hpp"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <csignal>
#include <cstdio>
#include <memory>
#include <thread>

#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/ssb_report.hpp"
#include "hpcdb/apps/hpcdb/ssb_summary.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/query/ssb_catalog.hpp"
#include "hpcdb/storage/ssb_tables.hpp"

namespace hpcdb {
namespace {

// Testing aid: the rank named by --fail-rank dies (SIGKILL, as a crash would)
// or stops for good (SIGSTOP: every thread of it) after --fail-after seconds.
class FaultInjection {
 public:
  FaultInjection(const SsbOptions& o, int rank) {
    if (o.fail_rank != rank) return;
    const bool hang = o.fail_how == "hang";
    thread_ = std::thread([this, rank, hang, after = o.fail_after] {
      std::unique_lock lock(mutex_);
      if (cv_.wait_for(lock, std::chrono::duration<double>(after), [&] { return done_; })) return;
      std::fprintf(stderr, "hpcdb: rank %d is %s now (--fail-rank)\n", rank, hang ? "hanging" : "killing itself");
      std::fflush(stderr);
      std::raise(hang ? SIGSTOP : SIGKILL);
    });
  }
  ~FaultInjection() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
};

// Memory a storage rank needs for its fragments (a little over the columns).
std::uint64_t fragment_bytes_estimate(const ssb::Scale& scale, const Placement& placement, int storage_index) {
  std::uint64_t bytes = 0;
  for (int t = 0; t < ssb::kTables; ++t) {
    const auto table = static_cast<ssb::TableId>(t);
    const int fragment = placement.fragment_on(static_cast<std::size_t>(t), storage_index);
    if (fragment < 0) continue;
    const KeyRange keys = fragment_keys(ssb::table_keys(table, scale), fragment,
                                        static_cast<int>(placement.engines_of(static_cast<std::size_t>(t)).size()));
    const std::uint64_t rows_per_key = table == ssb::TableId::lineorder ? 4 : 1;
    bytes += static_cast<std::uint64_t>(keys.end - keys.first) * rows_per_key * ssb::table_schema(table).row_width();
  }
  return bytes;
}

// The SQL of the random queries clients 0..N-1 of query engine 0 would run.
nlohmann::ordered_json query_stream(const SsbOptions& o, const SsbRun& run) {
  nlohmann::ordered_json clients = nlohmann::ordered_json::array();
  for (unsigned c = 0; c < o.clients; ++c) {
    CounterRng rng = ssb::client_stream(o.seed, 0, c);
    nlohmann::ordered_json queries = nlohmann::ordered_json::array();
    for (unsigned i = 0; i < o.stream_length; ++i) {
      const ssb::SsbQuery q = ssb::draw_query(rng, run.workload.queries);
      queries.push_back({{"query", ssb::label(q.name)}, {"flight", ssb::flight(q.name)}, {"sql", ssb::sql_of(q)}});
    }
    clients.push_back(queries);
  }
  return {{"scale", o.scale}, {"seed", o.seed}, {"clients", clients}};
}

// The answers file: the run's data and deployment, every engine's answers,
// and the update logs of the key-value fragments (each table's logs by
// fragment), which the answers' "seen" counts are prefixes of.
nlohmann::ordered_json answers_document(const SsbOptions& o, const Deployment& d, const Placement& placement,
                                        const SsbGathered& g) {
  nlohmann::ordered_json updates = nlohmann::ordered_json::object();
  for (const auto& log : g.updates) {
    const std::string table = log["table"].get<std::string>();
    const auto t = log["table_id"].get<std::size_t>();
    if (!updates.contains(table)) updates[table] = nlohmann::ordered_json::array();
    while (updates[table].size() < placement.engines_of(t).size()) updates[table].push_back(nlohmann::ordered_json::array());
    updates[table][log["fragment"].get<std::size_t>()] = log["log"];
  }
  return {{"config",
           {{"scale", o.scale},
            {"seed", o.seed},
            {"deployment", to_string(d.mode())},
            {"storage_engines", d.storage_engines()},
            {"query_engines", d.query_engines()}}},
          {"answers", g.answers},
          {"updates", updates}};
}

}  // namespace

int run_ssb_command(const Cluster& cluster, const SsbOptions& o) {
  SsbRun run;
  std::unique_ptr<Deployment> deployment;
  std::unique_ptr<Placement> placement;
  std::vector<std::string> tables;
  for (int t = 0; t < ssb::kTables; ++t) tables.emplace_back(ssb::table_name(static_cast<ssb::TableId>(t)));
  run_collectively(cluster.world(), [&] {
    run = resolve(o, cluster.size());
    deployment = std::make_unique<Deployment>(run.mode, cluster.size(), run.storage_engines);
    placement = std::make_unique<Placement>(Placement::parse(run.placement, tables, run.storage_engines));
    if (cluster.rank() == 0) {
      check_output_path(o.json, "JSON output");
      check_output_path(o.answers, "answers file", StandardOutput::refused);
    }
    if (deployment->runs_storage(cluster.rank())) {
      // Ranks on this node share its memory; each checks its own share with room to spare.
      const std::uint64_t need = fragment_bytes_estimate(run.scale, *placement, cluster.rank()) * 5 / 4;
      if (static_cast<double>(need) * cluster.node_size() > 0.9 * static_cast<double>(available_memory_bytes())) {
        throw UsageError("storage rank " + std::to_string(cluster.rank()) + " would need about " +
                         format_bytes(static_cast<double>(need)) + " for its fragments at scale factor " +
                         std::to_string(o.scale) + ", but this node has only " +
                         format_bytes(static_cast<double>(available_memory_bytes())) +
                         " available; use a smaller --scale or more storage ranks");
      }
    }
  });
  if (!o.stream_sql.empty()) {
    run_collectively(cluster.world(), [&] {
      if (cluster.rank() == 0) write_json(o.stream_sql, query_stream(o, run));
    });
    return 0;
  }
  if (o.late_engine >= deployment->query_engines()) {
    run_collectively(cluster.world(), [&] {
      throw UsageError("--late-engine " + std::to_string(o.late_engine) + ": there are query engines 0.." +
                       std::to_string(deployment->query_engines() - 1));
    });
  }

  const ssb::Generator generator(run.scale, o.seed);
  const Catalog catalog = ssb::catalog(generator);
  MessageLayer layer(cluster, run.layer);
  const int rank = cluster.rank();
  std::unique_ptr<StorageEngine> storage;
  std::unique_ptr<QueryEngine> engine;
  QueryEngine* local_engine = nullptr;
  Stopwatch load;
  run_collectively(cluster.world(), [&] {
    if (deployment->runs_storage(rank)) {
      LocalReceiver to_engine;
      if (deployment->runs_query(rank)) {
        to_engine = [&local_engine](int source, std::unique_ptr<ReceivedPayload> m) { local_engine->receive(source, std::move(m)); };
      }
      storage = std::make_unique<StorageEngine>(layer, *deployment, *placement, catalog, run.storage, rank, to_engine);
    }
    if (deployment->runs_query(rank)) {
      std::function<void(std::span<const std::byte>)> to_storage;
      if (storage) to_storage = [&storage, rank](std::span<const std::byte> m) { storage->accept(rank, m); };
      engine = std::make_unique<QueryEngine>(layer, *deployment, *placement, catalog, run.query,
                                             deployment->engine_of_rank(rank), ssb::render_value, to_storage);
      local_engine = engine.get();
    }
  });
  const double load_seconds = load.seconds();
  MPI_Barrier(cluster.world());

  // From here on the message layer's threads call into the engines: an error
  // ends the job at once from this rank (cluster.fail), without unwinding
  // into engines whose handlers may still run.
  ssb::WorkloadResult workload;
  try {
    FaultInjection fault(o, rank);
    if (storage) storage->start();
    if (engine) {
      if (deployment->engine_of_rank(rank) == o.late_engine) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.late_by);
        while (std::chrono::steady_clock::now() < until) {
          if (storage) storage->poll();
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      }
      engine->connect();
      workload = ssb::run_workload(*engine, run.workload, [&] {
        engine->tick();
        if (storage) storage->poll();
      });
      engine->disconnect();
    }
    if (storage) {
      storage->serve();
      storage->stop();
    }
  } catch (const UsageError& e) {
    cluster.fail(e.what(), 2);
  } catch (const std::exception& e) {
    cluster.fail(e.what(), 1);
  }

  SsbRankShare share;
  share.numbers["rank"] = rank;
  share.numbers["roles"] = std::string(storage ? "storage" : "") + (storage && engine ? "+" : "") + (engine ? "query" : "");
  if (storage) share.numbers["storage"] = storage_numbers(storage->stats(), load_seconds);
  if (engine) {
    share.numbers["query_engine"] = engine_numbers(engine->stats(), workload);
    add_histograms(share, workload);
    for (const ssb::QueryAnswer& a : workload.answers) share.answers.push_back(answer_json(a, deployment->engine_of_rank(rank)));
  }
  if (storage) {
    for (const UpdateLog& log : storage->update_logs()) share.updates.push_back(update_log_json(log, catalog.tables[log.table].schema));
  }
  share.numbers["layer"] = layer_numbers(layer.stats());
  // Messages still on their way (heartbeats) are handled by the engines'
  // handlers until the layer has drained them.
  layer.close();
  engine.reset();
  storage.reset();

  const SsbGathered gathered = gather(cluster, share);
  run_collectively(cluster.world(), [&] {
    if (rank != 0) return;
    const nlohmann::ordered_json document = ssb_document(o, run, *deployment, gathered);
    print_ssb_report(document);
    if (!o.json.empty()) write_json(o.json, document);
    if (!o.answers.empty()) write_json(o.answers, answers_document(o, *deployment, *placement, gathered));
  });
  return 0;
}

}  // namespace hpcdb
