#include "hpcdb/query/star_query_operator.hpp"

#include <chrono>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/storage/thread_cpu_time.hpp"

namespace hpcdb {

StarQueryOperator::StarQueryOperator(std::map<std::uint32_t, StubClient*> tables, std::function<QueryId()> next_query_id,
                                     ValueRenderer render, std::function<double(int rank)> silence,
                                     const StarOperatorConfig& config)
    : tables_(std::move(tables)),
      next_query_id_(std::move(next_query_id)),
      render_(std::move(render)),
      silence_(std::move(silence)),
      config_(config),
      worker_([this](std::vector<StarRequest>& requests) { run_cycle(requests); }, config.background,
              [this] { events_.close(); }) {}

StarQueryOperator::~StarQueryOperator() { stop(); }

StarOperatorStats StarQueryOperator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void StarQueryOperator::wait_for(OwedFragments owed, const std::function<void(const BatchEvent&)>& take) {
  while (!owed.empty()) {
    if (worker_.stopping() && events_.closed()) throw Error("the star-query operator was stopped with results outstanding");
    const std::vector<BatchEvent> events = events_.take_all(std::chrono::milliseconds(100));
    for (const BatchEvent& e : events) {
      const auto it = owed.find({e.table, e.fragment});
      if (it == owed.end()) {
        throw Error("results of table " + std::to_string(e.table) + " fragment " + std::to_string(e.fragment) +
                    " arrived when the operator did not wait for them");
      }
      it->second = e.source;
      take(e);
      if (e.kind == BatchEvent::Kind::fragment_done) owed.erase(it);
    }
    if (!events.empty()) continue;
    for (const auto& [fragment, rank] : owed) {
      if (rank < 0) continue;  // START not here yet: the stub client's rank is checked below
      const double quiet = silence_(rank);
      if (quiet > config_.reply_timeout) {
        throw Error("storage engine rank " + std::to_string(rank) + " has sent nothing for " +
                    std::to_string(static_cast<int>(quiet)) + " s while it owes results of table " +
                    std::to_string(fragment.first) + " (--reply-timeout); is it still running?");
      }
    }
    for (const auto& [fragment, rank] : owed) {
      if (rank >= 0) continue;
      const int holder = tables_.at(fragment.first)->fragment_rank(fragment.second);
      const double quiet = silence_(holder);
      if (quiet > config_.reply_timeout) {
        throw Error("storage engine rank " + std::to_string(holder) + " has sent nothing for " +
                    std::to_string(static_cast<int>(quiet)) + " s while it owes results of table " +
                    std::to_string(fragment.first) + " (--reply-timeout); is it still running?");
      }
    }
  }
}

void StarQueryOperator::run_cycle(std::vector<StarRequest>& requests) {
  Stopwatch watch;
  const double cpu_start = thread_cpu_seconds();
  StarBatchCycle cycle(requests, next_query_id_);
  wait_for(cycle.send_dimension_selections(tables_, *this), [&](const BatchEvent& e) { cycle.take_dimension_event(e); });
  const double dimension_seconds = watch.seconds();
  wait_for(cycle.send_fact_selection(tables_, *this, config_.semi_join_filters),
           [&](const BatchEvent& e) { cycle.take_fact_event(e); });
  const double fact_seconds = watch.seconds() - dimension_seconds;
  cycle.finish(render_);

  std::lock_guard lock(mutex_);
  ++stats_.cycles;
  stats_.queries += requests.size();
  const CycleCounts& c = cycle.counts();
  stats_.totals.dimension_tuples += c.dimension_tuples;
  stats_.totals.fact_tuples += c.fact_tuples;
  stats_.totals.fact_matches += c.fact_matches;
  stats_.totals.result_bytes += c.result_bytes;
  stats_.totals.filter_keys += c.filter_keys;
  stats_.dimension_seconds += dimension_seconds;
  stats_.fact_seconds += fact_seconds;
  stats_.busy_seconds += watch.seconds();
  stats_.cpu_seconds += thread_cpu_seconds() - cpu_start;
}

}  // namespace hpcdb
