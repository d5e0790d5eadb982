#include "hpcdb/storage/scan_server.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/storage/thread_cpu_time.hpp"

namespace hpcdb {

ScanServer::ScanServer(TableFragment& fragment, const ScanServerConfig& config, ChannelFor channels)
    : fragment_(fragment),
      config_(config),
      channels_(std::move(channels)),
      worker_([this](std::vector<QueryBatch>& batches) { run_cycle(batches); }, {.background = config.background, .on_stop = {}, .on_idle = {}}) {
  if (config_.workers < 1) throw UsageError("a scan needs at least one worker thread");
}

ScanServer::~ScanServer() { stop(); }

ScanServerStats ScanServer::stats() const {
  std::lock_guard lock(stats_mutex_);
  return stats_;
}

// Each engine's queries, in the order it sent them, batch after batch.
std::vector<EngineShare> ScanServer::shares_of(const std::vector<QueryBatch>& batches,
                                               std::map<std::uint32_t, std::vector<const QueryBatch*>>& by_engine) const {
  for (const QueryBatch& b : batches) {
    for (const StorageQuery& q : b.queries) {
      if (q.kind != QueryKind::select) {
        throw Error("table " + fragment_.rows.schema().name + "'s scan backend got a point query; lookups and updates "
                    "go to its key-value backend");
      }
    }
    by_engine[b.engine].push_back(&b);
  }
  std::vector<EngineShare> shares;
  for (const auto& [engine, engine_batches] : by_engine) {
    EngineShare share;
    share.engine = engine;
    for (const QueryBatch* b : engine_batches) {
      for (const StorageQuery& q : b->queries) share.queries.push_back(&q);
    }
    shares.push_back(std::move(share));
  }
  return shares;
}

void ScanServer::run_cycle(std::vector<QueryBatch>& batches) {
  Stopwatch watch;
  const double cpu_start = thread_cpu_seconds();
  const std::uint64_t batch = next_batch_++;
  std::uint64_t applied = 0;
  if (fragment_.master) applied = fragment_.apply_propagated_updates();
  const double updates_seconds = watch.seconds();

  std::map<std::uint32_t, std::vector<const QueryBatch*>> by_engine;
  std::vector<EngineShare> shares = shares_of(batches, by_engine);
  std::vector<PositionedQuery> positioned;
  const std::size_t words = assign_positions(fragment_.rows.schema(), shares, positioned);
  const ScanPlan plan(fragment_.rows, fragment_.stats, positioned, words, config_.evaluation);
  const double plan_seconds = watch.seconds() - updates_seconds;

  // START BATCH to every engine of the batch.
  std::vector<std::unique_ptr<ResultStream>> streams;
  for (const EngineShare& share : shares) {
    streams.push_back(std::make_unique<ResultStream>(channels_(share.engine), Priority::best_effort));
    StartBatch start;
    start.table = fragment_.table;
    start.fragment = fragment_.fragment;
    start.batch = batch;
    start.engine = share.engine;
    for (const QueryBatch* b : by_engine[share.engine]) start.engine_batches.push_back(b->engine_batch);
    for (const StorageQuery* q : share.queries) start.queries.push_back(q->id);
    start.layout = config_.layout;
    start.record = share.record;
    start.updates = fragment_.updates_applied();
    streams.back()->send_start(start);
  }

  // The scan: workers take zones from a shared counter and ship their own
  // pieces; the last worker to finish is not known in advance, so with
  // several workers END BATCH is an empty piece of its own.
  const std::size_t zones = fragment_.zones.zones();
  const auto workers = static_cast<unsigned>(std::min<std::size_t>(config_.workers, std::max<std::size_t>(zones, 1)));
  TaskCounter zones_left(zones);
  std::vector<ScanCounts> scan_counts(workers);
  std::vector<ResultCounts> result_counts(workers);
  std::vector<double> worker_cpu(workers, 0);
  run_on_threads(workers, [&](unsigned w) {
    const double cpu = thread_cpu_seconds();
    std::vector<std::unique_ptr<ResultWriter>> writers;
    std::vector<ResultWriter*> raw;
    for (std::size_t e = 0; e < shares.size(); ++e) {
      writers.push_back(std::make_unique<ResultWriter>(*streams[e], fragment_.table, fragment_.fragment, batch,
                                                       shares[e].record, config_.layout, config_.piece_bytes));
      raw.push_back(writers.back().get());
    }
    scan_counts[w] = shared_scan(fragment_.rows, fragment_.zones, plan, shares, raw, zones_left);
    for (auto& writer : writers) {
      writer->flush(workers == 1);
      result_counts[w] += writer->counts();
    }
    if (w > 0) worker_cpu[w] = thread_cpu_seconds() - cpu;
  });
  ResultCounts results;
  for (const ResultCounts& c : result_counts) results += c;
  if (workers > 1) {
    for (std::size_t e = 0; e < shares.size(); ++e) {
      ResultWriter end(*streams[e], fragment_.table, fragment_.fragment, batch, shares[e].record, config_.layout, 0);
      end.flush(true);
      results.pieces += 1;
    }
  }

  std::lock_guard lock(stats_mutex_);
  ++stats_.cycles;
  stats_.queries += positioned.size();
  stats_.engine_batches += batches.size();
  ++(plan.evaluation() == Evaluation::indexed ? stats_.indexed_cycles : stats_.per_query_cycles);
  for (const ScanCounts& c : scan_counts) stats_.scan += c;
  stats_.results += results;
  stats_.updates_applied += applied;
  stats_.phases.updates += updates_seconds;
  stats_.phases.plan += plan_seconds;
  const double seconds = watch.seconds();
  stats_.busy_seconds += seconds;
  stats_.cpu_seconds += thread_cpu_seconds() - cpu_start;
  for (double c : worker_cpu) stats_.cpu_seconds += c;
  stats_.cycle_time.add(static_cast<std::uint64_t>(seconds * 1e9));
}

}  // namespace hpcdb
