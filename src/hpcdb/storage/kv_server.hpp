#pragma once
// The stub server of a table fragment's key-value backend: an always-on
// operator with short batch cycles. Each cycle takes every pending batch of
// lookups and updates, answers each engine with START BATCH and one result
// batch in the general layout (each found row's record, with the looked-up
// key as the tuple's query-specific data), and applies the updates, which
// the shared-scan copy of the rows takes over before its next scan. Its
// messages travel with the priority it is given: latency-sensitive, so that
// they overtake the scans' results, unless priorities are off.
#include <cstdint>
#include <mutex>

#include "hpcdb/core/latency_histogram.hpp"
#include "hpcdb/storage/batch_cycle_worker.hpp"
#include "hpcdb/storage/result_writer.hpp"
#include "hpcdb/storage/scan_server.hpp"
#include "hpcdb/storage/table_fragment.hpp"

namespace hpcdb {

struct KvServerStats {
  std::uint64_t cycles = 0;
  std::uint64_t lookups = 0;
  std::uint64_t found = 0;
  std::uint64_t updates = 0;
  ResultCounts results;
  LatencyHistogram cycle_time;
};

class KvServer {
 public:
  KvServer(TableFragment& fragment, Priority priority, ChannelFor channels);
  ~KvServer();
  KvServer(const KvServer&) = delete;
  KvServer& operator=(const KvServer&) = delete;

  void enqueue(QueryBatch batch) { worker_.push(std::move(batch)); }
  void start() { worker_.start(); }
  void stop() { worker_.stop(); }
  void check() const { worker_.check(); }
  KvServerStats stats() const;
  void run_cycle(std::vector<QueryBatch>& batches);

 private:
  TableFragment& fragment_;
  Priority priority_;
  ChannelFor channels_;
  mutable std::mutex stats_mutex_;
  KvServerStats stats_;
  std::uint64_t next_batch_ = 1;
  BatchCycleWorker<QueryBatch> worker_;  // last: its thread stops before the members it uses go
};

}  // namespace hpcdb
