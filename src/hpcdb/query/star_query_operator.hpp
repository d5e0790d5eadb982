#pragma once
// The query engine's always-on operator for star queries. Its thread runs
// batch cycles (star_batch_cycle.hpp) over the queries waiting, the oldest
// first, at most `cycle_queries` per cycle, so that the queries of a cycle
// share every scan and every probe and a cycle's cost stays that of a full
// bitset word's worth of queries however many clients wait. Up to
// `cycles_in_flight` cycles run at once: the next cycle's dimension phase
// while the last one's fact rows are scanned and probed, so that the fact
// table's scan never waits for a dimension phase when queries are waiting,
// and a query that arrives during a cycle starts at once when a slot is
// free. The thread does one thing at a time: it takes the requests and the
// results (from the stub clients, on network threads) from one queue, in
// the order they came, and moves each cycle on as its results complete.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

#include "hpcdb/query/star_batch_cycle.hpp"
#include "hpcdb/storage/batch_cycle_worker.hpp"

namespace hpcdb {

struct StarOperatorConfig {
  bool semi_join_filters = true;
  bool background = false;  // the operator's thread in the idle scheduling class (storage/thread_priority.hpp)
  double reply_timeout = 60;  // seconds a storage engine owing results may stay silent
  std::size_t cycle_queries = 64;   // queries per cycle at most
  std::size_t cycles_in_flight = 2;
};

// Seconds summed over cycles (wall time: waits overlap when cycles do).
struct StarPhaseSeconds {
  double queue_wait = 0;  // summed over queries: submitted -> its cycle started
  double dimension = 0;   // dimension selections sent -> their last result
  double fact = 0;        // fact selection sent -> its last result
  double cycle = 0;       // first selection sent -> answers handed over
};

struct StarOperatorStats {
  std::uint64_t cycles = 0;
  std::uint64_t queries = 0;
  std::uint64_t most_in_flight = 0;
  CycleCounts totals;
  StarPhaseSeconds phases;
  double cpu_seconds = 0;  // the operator thread's
};

class StarQueryOperator final {
 public:
  // `tables`: the stub client of each table id; `silence`: seconds since a
  // storage rank was last heard from.
  StarQueryOperator(std::map<std::uint32_t, StubClient*> tables, std::function<QueryId()> next_query_id,
                    ValueRenderer render, std::function<double(int rank)> silence, const StarOperatorConfig& config);
  ~StarQueryOperator();
  StarQueryOperator(const StarQueryOperator&) = delete;
  StarQueryOperator& operator=(const StarQueryOperator&) = delete;

  void submit(StarRequest request);
  // Requests that arrive together: a cycle that starts takes all of them
  // (up to its size) or none.
  void submit_all(std::vector<StarRequest> requests);
  void start() { worker_.start(); }
  void stop() { worker_.stop(); }
  void check() const { worker_.check(); }  // rethrows what ended the thread, if anything did
  StarOperatorStats stats() const;

 private:
  struct CycleEvent {
    std::uint64_t cycle = 0;
    BatchEvent event;
  };
  using Work = std::variant<StarRequest, CycleEvent>;
  class CycleConsumer;
  struct InFlight;

  void take(std::vector<Work>& work);
  void admit();
  void advance(InFlight& c);
  void finish(InFlight& c);
  void check_silence();

  std::map<std::uint32_t, StubClient*> tables_;
  std::function<QueryId()> next_query_id_;
  ValueRenderer render_;
  std::function<double(int)> silence_;
  StarOperatorConfig config_;
  // The thread's own state.
  std::deque<StarRequest> waiting_;
  std::map<std::uint64_t, std::unique_ptr<InFlight>> in_flight_;
  std::uint64_t next_cycle_ = 1;
  static constexpr std::uint64_t kSilenceCheckNs = 1'000'000'000;
  std::uint64_t last_silence_check_ns_ = 0;
  mutable std::mutex mutex_;
  StarOperatorStats stats_;
  BatchCycleWorker<Work> worker_;  // last: its thread stops before the members it uses go
};

}  // namespace hpcdb
