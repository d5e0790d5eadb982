#pragma once
// The stub server of a table fragment's shared-scan backend: an always-on
// operator with its own thread that runs the batch cycle. Each cycle takes
// every query batch that arrived (from any engine), applies the updates the
// key-value master propagated, plans the evaluation of the queries'
// predicates (scan_plan.hpp), sends START BATCH to each engine with queries
// in it, scans the fragment once for all of them (with `workers` threads
// taking its zones one at a time, each shipping its own pieces), and ends
// each engine's batch with END BATCH.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "hpcdb/core/latency_histogram.hpp"
#include "hpcdb/storage/batch_cycle_worker.hpp"
#include "hpcdb/storage/result_writer.hpp"
#include "hpcdb/storage/shared_scan.hpp"
#include "hpcdb/storage/table_fragment.hpp"

namespace hpcdb {

struct ScanServerConfig {
  ResultLayout layout = ResultLayout::tuple_free;
  std::size_t piece_bytes = std::size_t{1} << 20;
  unsigned workers = 1;
  Evaluation evaluation = Evaluation::automatic;
  bool background = false;  // the scan's threads in the idle scheduling class (thread_priority.hpp; workers inherit it)
};

// Where a scan's cycles spent their time (seconds, summed over cycles; the
// scan's own phases in ScanCounts, summed over workers).
struct ScanPhaseSeconds {
  double updates = 0;  // propagated updates applied
  double plan = 0;     // the scan plan (with the predicate index, when indexed)
};

struct ScanServerStats {
  std::uint64_t cycles = 0;
  std::uint64_t per_query_cycles = 0;  // cycles that evaluated query by query
  std::uint64_t indexed_cycles = 0;    // ... with the predicate index
  std::uint64_t queries = 0;
  std::uint64_t engine_batches = 0;
  ScanCounts scan;
  ResultCounts results;
  std::uint64_t updates_applied = 0;
  ScanPhaseSeconds phases;
  double busy_seconds = 0;
  double cpu_seconds = 0;  // of the workers, summed
  LatencyHistogram cycle_time;
};

using ChannelFor = std::function<ResultChannel&(std::uint32_t engine)>;

class ScanServer {
 public:
  ScanServer(TableFragment& fragment, const ScanServerConfig& config, ChannelFor channels);
  ~ScanServer();
  ScanServer(const ScanServer&) = delete;
  ScanServer& operator=(const ScanServer&) = delete;

  void enqueue(QueryBatch batch) { worker_.push(std::move(batch)); }
  void start() { worker_.start(); }
  void stop() { worker_.stop(); }  // finishes the cycle under way
  // Rethrows what ended the operator's thread, if anything did.
  void check() const { worker_.check(); }
  ScanServerStats stats() const;
  // Runs one cycle on the calling thread (for tests, with no thread started).
  void run_cycle(std::vector<QueryBatch>& batches);

 private:
  std::vector<EngineShare> shares_of(const std::vector<QueryBatch>& batches,
                                     std::map<std::uint32_t, std::vector<const QueryBatch*>>& by_engine) const;

  TableFragment& fragment_;
  ScanServerConfig config_;
  ChannelFor channels_;
  mutable std::mutex stats_mutex_;
  ScanServerStats stats_;
  std::uint64_t next_batch_ = 1;
  BatchCycleWorker<QueryBatch> worker_;  // last: its thread stops before the members it uses go
};

}  // namespace hpcdb
