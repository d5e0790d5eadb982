#include "hpcdb/query/star_query_operator.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/storage/thread_cpu_time.hpp"

namespace hpcdb {

// Hands one cycle's results to the operator's queue, marked with the cycle.
class StarQueryOperator::CycleConsumer final : public BatchConsumer {
 public:
  CycleConsumer(BatchCycleWorker<Work>& worker, std::uint64_t cycle) : worker_(worker), cycle_(cycle) {}
  void consume(BatchEvent event) override { worker_.push(Work{CycleEvent{cycle_, std::move(event)}}); }

 private:
  BatchCycleWorker<Work>& worker_;
  std::uint64_t cycle_;
};

struct StarQueryOperator::InFlight {
  enum class Phase { dimension, fact } phase = Phase::dimension;
  std::vector<StarRequest> requests;
  std::unique_ptr<StarBatchCycle> cycle;
  std::unique_ptr<CycleConsumer> consumer;
  OwedFragments owed;
  std::uint64_t started_ns = 0;
  std::uint64_t phase_started_ns = 0;
};

StarQueryOperator::StarQueryOperator(std::map<std::uint32_t, StubClient*> tables, std::function<QueryId()> next_query_id,
                                     ValueRenderer render, std::function<double(int rank)> silence,
                                     const StarOperatorConfig& config)
    : tables_(std::move(tables)),
      next_query_id_(std::move(next_query_id)),
      render_(std::move(render)),
      silence_(std::move(silence)),
      config_(config),
      worker_([this](std::vector<Work>& work) { take(work); },
              {.background = config.background, .on_stop = {}, .on_idle = [this] { check_silence(); }}) {
  if (config_.cycle_queries < 1) throw UsageError("a star-query cycle needs room for at least one query");
  if (config_.cycles_in_flight < 1) throw UsageError("the star-query operator needs at least one cycle in flight");
}

StarQueryOperator::~StarQueryOperator() { stop(); }

void StarQueryOperator::submit(StarRequest request) {
  request.submitted_ns = monotonic_ns();
  worker_.push(Work{std::move(request)});
}

void StarQueryOperator::submit_all(std::vector<StarRequest> requests) {
  const std::uint64_t now = monotonic_ns();
  std::vector<Work> work;
  work.reserve(requests.size());
  for (StarRequest& r : requests) {
    r.submitted_ns = now;
    work.emplace_back(std::move(r));
  }
  worker_.push_all(std::move(work));
}

StarOperatorStats StarQueryOperator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void StarQueryOperator::take(std::vector<Work>& work) {
  const double cpu = thread_cpu_seconds();
  for (Work& w : work) {
    if (auto* request = std::get_if<StarRequest>(&w)) {
      waiting_.push_back(std::move(*request));
      continue;
    }
    auto& [cycle, event] = std::get<CycleEvent>(w);
    const auto it = in_flight_.find(cycle);
    if (it == in_flight_.end()) throw Error("results arrived for a star-query cycle that has finished");
    InFlight& c = *it->second;
    const auto owed = c.owed.find({event.table, event.fragment});
    if (owed == c.owed.end()) {
      throw Error("results of table " + std::to_string(event.table) + " fragment " + std::to_string(event.fragment) +
                  " arrived when the operator did not wait for them");
    }
    owed->second = event.source;
    if (c.phase == InFlight::Phase::dimension) {
      c.cycle->take_dimension_event(event);
    } else {
      c.cycle->take_fact_event(event);
    }
    if (event.kind == BatchEvent::Kind::fragment_done) c.owed.erase(owed);
    if (c.owed.empty()) advance(c);
  }
  admit();
  if (monotonic_ns() - last_silence_check_ns_ > kSilenceCheckNs) check_silence();
  std::lock_guard lock(mutex_);
  stats_.cpu_seconds += thread_cpu_seconds() - cpu;
}

// Starts cycles while there are free slots and waiting queries, the oldest first.
void StarQueryOperator::admit() {
  while (in_flight_.size() < config_.cycles_in_flight && !waiting_.empty()) {
    const std::uint64_t id = next_cycle_++;
    auto c = std::make_unique<InFlight>();
    const std::size_t n = std::min(waiting_.size(), config_.cycle_queries);
    c->requests.assign(std::make_move_iterator(waiting_.begin()), std::make_move_iterator(waiting_.begin() + static_cast<std::ptrdiff_t>(n)));
    waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(n));
    c->started_ns = c->phase_started_ns = monotonic_ns();
    double waited = 0;
    for (const StarRequest& r : c->requests) waited += static_cast<double>(c->started_ns - r.submitted_ns) * 1e-9;
    c->cycle = std::make_unique<StarBatchCycle>(c->requests, next_query_id_);
    c->consumer = std::make_unique<CycleConsumer>(worker_, id);
    InFlight& cycle = *c;
    in_flight_.emplace(id, std::move(c));
    {
      std::lock_guard lock(mutex_);
      stats_.phases.queue_wait += waited;
      stats_.most_in_flight = std::max<std::uint64_t>(stats_.most_in_flight, in_flight_.size());
    }
    cycle.owed = cycle.cycle->send_dimension_selections(tables_, *cycle.consumer);
    if (cycle.owed.empty()) advance(cycle);
  }
}

void StarQueryOperator::advance(InFlight& c) {
  const std::uint64_t now = monotonic_ns();
  const double phase = static_cast<double>(now - c.phase_started_ns) * 1e-9;
  c.phase_started_ns = now;
  if (c.phase == InFlight::Phase::dimension) {
    {
      std::lock_guard lock(mutex_);
      stats_.phases.dimension += phase;
    }
    c.phase = InFlight::Phase::fact;
    c.owed = c.cycle->send_fact_selection(tables_, *c.consumer, config_.semi_join_filters);
    if (!c.owed.empty()) return;
  }
  {
    std::lock_guard lock(mutex_);
    stats_.phases.fact += phase;
  }
  finish(c);
}

void StarQueryOperator::finish(InFlight& c) {
  c.cycle->finish(render_);
  std::lock_guard lock(mutex_);
  ++stats_.cycles;
  stats_.queries += c.requests.size();
  stats_.totals += c.cycle->counts();
  stats_.phases.cycle += static_cast<double>(monotonic_ns() - c.started_ns) * 1e-9;
  for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it) {
    if (it->second.get() == &c) {
      in_flight_.erase(it);
      break;
    }
  }
}

// Nothing came for a while: a storage engine that owes results and has sent
// nothing for --reply-timeout ends the job (its message names it).
void StarQueryOperator::check_silence() {
  last_silence_check_ns_ = monotonic_ns();
  for (const auto& [id, c] : in_flight_) {
    for (const auto& [fragment, rank] : c->owed) {
      const int holder = rank >= 0 ? rank : tables_.at(fragment.first)->fragment_rank(fragment.second);
      const double quiet = silence_(holder);
      if (quiet > config_.reply_timeout) {
        throw Error("storage engine rank " + std::to_string(holder) + " has sent nothing for " +
                    std::to_string(static_cast<int>(quiet)) + " s while it owes results of table " +
                    std::to_string(fragment.first) + " (--reply-timeout); is it still running?");
      }
    }
  }
}

}  // namespace hpcdb
