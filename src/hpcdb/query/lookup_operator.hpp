#pragma once
// The query engine's always-on operator for point queries on a table's
// key-value backend: its own thread runs short batch cycles (every pending
// lookup and update in one batch, sent to the table's fragments, the answers
// handed back as they complete), independent of the star queries' long
// cycles. Its batches travel latency-sensitive unless priorities are off.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "hpcdb/query/batch_consumer.hpp"
#include "hpcdb/query/stub_client.hpp"
#include "hpcdb/storage/batch_cycle_worker.hpp"

namespace hpcdb {

struct PointRequest {
  std::int64_t key = 0;
  bool update = false;
  std::uint16_t column = 0;  // update: column := value
  std::int64_t value = 0;
  std::vector<std::uint16_t> projection;  // lookup: columns returned
  // Called on the operator's thread: the integer values of the projected
  // columns (text columns as 0) when a row has the key, else empty; updates
  // get an empty result.
  std::function<void(std::optional<std::vector<std::int64_t>> row)> done;
};

struct LookupOperatorStats {
  std::uint64_t cycles = 0;
  std::uint64_t requests = 0;
  std::uint64_t found = 0;
};

class LookupOperator final : public BatchConsumer {
 public:
  LookupOperator(StubClient& table, Priority priority, std::function<QueryId()> next_query_id,
                 std::function<double(int rank)> silence, double reply_timeout);
  ~LookupOperator() override;

  void submit(PointRequest request) { worker_.push(std::move(request)); }
  void consume(BatchEvent event) override { events_.push(std::move(event)); }
  void start() { worker_.start(); }
  void stop() { worker_.stop(); }
  void check() const { worker_.check(); }
  LookupOperatorStats stats() const;
  void run_cycle(std::vector<PointRequest>& requests);

 private:
  StubClient& table_;
  Priority priority_;
  std::function<QueryId()> next_query_id_;
  std::function<double(int)> silence_;
  double reply_timeout_;
  BatchQueue<BatchEvent> events_;
  mutable std::mutex mutex_;
  LookupOperatorStats stats_;
  BatchCycleWorker<PointRequest> worker_;  // last: its thread stops before the members it uses go
};

}  // namespace hpcdb
