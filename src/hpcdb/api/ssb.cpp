#include "hpcdb/api/ssb.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/failure_timer.hpp"
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

std::vector<std::string> table_names() {
  std::vector<std::string> tables;
  for (int t = 0; t < ssb::kTables; ++t) tables.emplace_back(ssb::table_name(static_cast<ssb::TableId>(t)));
  return tables;
}

// Memory a storage rank needs for its fragments (a little over the columns).
std::uint64_t fragment_bytes_estimate(const ssb::Scale& scale, const Placement& placement, int storage_index) {
  std::uint64_t bytes = 0;
  for (int t = 0; t < ssb::kTables; ++t) {
    const auto table = static_cast<ssb::TableId>(t);
    const int fragment = placement.fragment_on(static_cast<std::size_t>(t), storage_index);
    if (fragment < 0) continue;
    const FragmentKeys keys = fragment_keys(ssb::table_keys(table, scale), fragment,
                                        static_cast<int>(placement.engines_of(static_cast<std::size_t>(t)).size()));
    const std::uint64_t rows_per_key = table == ssb::TableId::lineorder ? 4 : 1;
    bytes += static_cast<std::uint64_t>(keys.end - keys.first) * rows_per_key * ssb::table_schema(table).row_width();
  }
  return bytes;
}

// Outputs writable, the late engine an engine, the fragments in memory.
void check(const Cluster& cluster, const SsbRequest& request, const SsbLayout& layout) {
  if (cluster.rank() == 0) {
    check_output_path(request.report_file, "JSON output");
    check_output_path(request.answers_file, "answers file", StandardOutput::refused);
  }
  if (request.late_engine >= layout.deployment.query_engines()) {
    throw UsageError("--late-engine " + std::to_string(request.late_engine) + ": there are query engines 0.." +
                     std::to_string(layout.deployment.query_engines() - 1));
  }
  if (!layout.deployment.runs_storage(cluster.rank())) return;
  // Ranks on this node share its memory; each checks its own share with room to spare.
  const std::uint64_t need = fragment_bytes_estimate(request.scale, layout.placement, cluster.rank()) * 5 / 4;
  if (static_cast<double>(need) * cluster.node_size() > 0.9 * static_cast<double>(available_memory_bytes())) {
    throw UsageError("storage rank " + std::to_string(cluster.rank()) + " would need about " +
                     format_bytes(static_cast<double>(need)) + " for its fragments at scale factor " +
                     std::to_string(request.scale.factor) + ", but this node has only " +
                     format_bytes(static_cast<double>(available_memory_bytes())) +
                     " available; use a smaller --scale or more storage ranks");
  }
}

// The engines this rank runs, as its roles say.
struct RankEngines {
  std::unique_ptr<StorageEngine> storage;
  std::unique_ptr<QueryEngine> query;
  double load_seconds = 0;
};

RankEngines build_engines(const Cluster& cluster, const SsbRequest& request, const SsbLayout& layout,
                          const Catalog& catalog, MessageLayer& layer) {
  const int rank = cluster.rank();
  const Deployment& deployment = layout.deployment;
  RankEngines e;
  // Where the storage engine's local receiver finds the query engine made
  // after it: shared with the receiver, which outlives this function.
  const auto local_engine = std::make_shared<QueryEngine*>(nullptr);
  Stopwatch load;
  run_collectively(cluster.world(), [&] {
    if (deployment.runs_storage(rank)) {
      LocalReceiver to_engine;
      if (deployment.runs_query(rank)) {
        to_engine = [local_engine](int source, std::unique_ptr<ReceivedPayload> m) {
          (*local_engine)->receive(source, std::move(m));
        };
      }
      e.storage = std::make_unique<StorageEngine>(layer, deployment, layout.placement, catalog, request.storage, rank,
                                                  to_engine);
    }
    if (deployment.runs_query(rank)) {
      std::function<void(std::span<const std::byte>)> to_storage;
      if (e.storage) to_storage = [storage = e.storage.get(), rank](std::span<const std::byte> m) { storage->accept(rank, m); };
      e.query = std::make_unique<QueryEngine>(layer, deployment, layout.placement, catalog, request.query,
                                              deployment.engine_of_rank(rank), ssb::render_value, to_storage);
      *local_engine = e.query.get();
    }
  });
  e.load_seconds = load.seconds();
  return e;
}

// Testing aid: a query engine that connects late, serving its storage meanwhile.
void wait_if_late(const SsbRequest& request, const SsbLayout& layout, int rank, RankEngines& e) {
  if (layout.deployment.engine_of_rank(rank) != request.late_engine) return;
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(request.late_by);
  while (std::chrono::steady_clock::now() < until) {
    if (e.storage) e.storage->poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The run itself. From here on the message layer's threads call into the
// engines: an error ends the job at once from this rank (cluster.fail),
// without unwinding into engines whose handlers may still run.
ssb::WorkloadResult run_roles(const Cluster& cluster, const SsbRequest& request, const SsbLayout& layout,
                              RankEngines& e) {
  ssb::WorkloadResult workload;
  try {
    const FailureTimer fault(request.failure, cluster.rank());
    if (e.storage) e.storage->start();
    if (e.query) {
      wait_if_late(request, layout, cluster.rank(), e);
      e.query->connect();
      workload = ssb::run_workload(*e.query, request.workload, [&] {
        e.query->tick();
        if (e.storage) e.storage->poll();
      });
      e.query->disconnect();
    }
    if (e.storage) {
      e.storage->serve();
      e.storage->stop();
    }
  } catch (const UsageError& error) {
    cluster.fail(error.what(), 2);
  } catch (const std::exception& error) {
    cluster.fail(error.what(), 1);
  }
  return workload;
}

SsbRankShare share_of(int rank, const SsbLayout& layout, const Catalog& catalog, const RankEngines& e,
                      const ssb::WorkloadResult& workload, const MessageLayer& layer) {
  SsbRankShare share;
  share.numbers["rank"] = rank;
  const bool storage = e.storage != nullptr, query = e.query != nullptr;
  share.numbers["roles"] = std::string(storage ? "storage" : "") + (storage && query ? "+" : "") + (query ? "query" : "");
  if (storage) share.numbers["storage"] = storage_numbers(e.storage->stats(), e.load_seconds);
  if (query) {
    share.numbers["query_engine"] = engine_numbers(e.query->stats(), workload);
    add_histograms(share, workload);
    const int engine = layout.deployment.engine_of_rank(rank);
    for (const ssb::QueryAnswer& a : workload.answers) share.answers.push_back(answer_json(a, engine));
  }
  if (storage) {
    for (const UpdateLog& log : e.storage->update_logs()) {
      share.updates.push_back(update_log_json(log, catalog.tables[log.table].schema));
    }
  }
  share.numbers["layer"] = layer_numbers(layer.stats());
  return share;
}

}  // namespace

SsbLayout ssb_layout(const SsbRequest& request, int ranks) {
  return {Deployment(request.mode, ranks, request.storage_engines),
          Placement::parse(request.placement, table_names(), request.storage_engines)};
}

SsbGathered run_ssb(const Cluster& cluster, const SsbRequest& request) {
  std::unique_ptr<SsbLayout> layout;
  run_collectively(cluster.world(), [&] {
    layout = std::make_unique<SsbLayout>(ssb_layout(request, cluster.size()));
    check(cluster, request, *layout);
  });
  const ssb::Generator generator(request.scale, request.seed);
  const Catalog catalog = ssb::catalog(generator);
  MessageLayer layer(cluster, request.layer);
  RankEngines engines = build_engines(cluster, request, *layout, catalog, layer);
  MPI_Barrier(cluster.world());
  const ssb::WorkloadResult workload = run_roles(cluster, request, *layout, engines);
  const SsbRankShare share = share_of(cluster.rank(), *layout, catalog, engines, workload, layer);
  // Messages still on their way (heartbeats) are handled by the engines'
  // handlers until the layer has drained them.
  layer.close();
  engines.query.reset();
  engines.storage.reset();
  return gather(cluster, share);
}

}  // namespace hpcdb
