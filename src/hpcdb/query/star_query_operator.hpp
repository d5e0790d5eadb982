#pragma once
// The query engine's always-on operator for star queries: its own thread
// runs the batch cycle (star_batch_cycle.hpp) over every query pending at
// the start of a cycle, so that the queries of a batch share every scan and
// every probe. Results arrive through consume() (from the stub clients, on
// network threads) and are queued for the operator's thread.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "hpcdb/query/star_batch_cycle.hpp"
#include "hpcdb/storage/batch_cycle_worker.hpp"

namespace hpcdb {

struct StarOperatorConfig {
  bool semi_join_filters = true;
  bool background = false;  // the operator's thread in the idle scheduling class (storage/thread_priority.hpp)
  double reply_timeout = 60;  // seconds a storage engine owing results may stay silent
};

struct StarOperatorStats {
  std::uint64_t cycles = 0;
  std::uint64_t queries = 0;
  CycleCounts totals;
  double dimension_seconds = 0;
  double fact_seconds = 0;
  double busy_seconds = 0;
  double cpu_seconds = 0;  // the operator thread's
};

class StarQueryOperator final : public BatchConsumer {
 public:
  // `tables`: the stub client of each table id; `silence`: seconds since a
  // storage rank was last heard from.
  StarQueryOperator(std::map<std::uint32_t, StubClient*> tables, std::function<QueryId()> next_query_id,
                    ValueRenderer render, std::function<double(int rank)> silence, const StarOperatorConfig& config);
  ~StarQueryOperator() override;

  void submit(StarRequest request) { worker_.push(std::move(request)); }
  void consume(BatchEvent event) override { events_.push(std::move(event)); }
  void start() { worker_.start(); }
  void stop() { worker_.stop(); }
  void check() const { worker_.check(); }  // rethrows what ended the thread, if anything did
  StarOperatorStats stats() const;
  // One batch cycle on the calling thread (for tests; no thread started).
  void run_cycle(std::vector<StarRequest>& requests);

 private:
  // Feeds events to `take` until every owed fragment has ended.
  void wait_for(OwedFragments owed, const std::function<void(const BatchEvent&)>& take);

  std::map<std::uint32_t, StubClient*> tables_;
  std::function<QueryId()> next_query_id_;
  ValueRenderer render_;
  std::function<double(int)> silence_;
  StarOperatorConfig config_;
  BatchQueue<BatchEvent> events_;
  mutable std::mutex mutex_;
  StarOperatorStats stats_;
  BatchCycleWorker<StarRequest> worker_;  // last: its thread stops before the members it uses go
};

}  // namespace hpcdb
