#include "hpcdb/query/ssb_workload.hpp"

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <queue>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb::ssb {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// The shared state of all clients of one engine; completions arrive on the
// operators' threads.
class Driver {
 public:
  Driver(QueryEngine& engine, const WorkloadConfig& config) : engine_(engine), config_(config), start_(Clock::now()) {}
  ~Driver() { stop_pacer(); }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  void start_clients() {
    if (config_.mix == QueryMix::standard) {
      // The 13 queries, --rounds times, taken in order by the clients.
      for (unsigned r = 0; r < config_.rounds; ++r) {
        for (int q = 0; q < kQueryNames; ++q) {
          const auto name = static_cast<QueryName>(q);
          standard_.push_back({name, standard_parameters(name)});
        }
      }
      std::vector<StarRequest> first;
      for (unsigned c = 0; c < config_.clients; ++c) {
        std::optional<SsbQuery> next = next_standard(false);
        if (!next) break;
        first.push_back(make_request(*next, nullptr));
      }
      engine_.star().submit_all(std::move(first));
    } else {
      for (unsigned c = 0; c < config_.clients; ++c) {
        rngs_.push_back(client_stream(config_.seed, engine_.engine(), c));
      }
      result_.completed_by_client.assign(config_.clients, 0);
      std::vector<StarRequest> first;
      for (unsigned c = 0; c < config_.clients; ++c) {
        {
          std::lock_guard lock(mutex_);
          ++outstanding_;
        }
        first.push_back(make_request(random_query(rngs_[c]), &rngs_[c], c));
      }
      engine_.star().submit_all(std::move(first));
    }
    if (config_.points.clients > 0) {
      if (engine_.lookups() == nullptr) throw UsageError("point-query clients need a key-value table (--kv-table)");
      for (unsigned c = 0; c < config_.points.clients; ++c) {
        point_rngs_.push_back(point_client_stream(config_.seed, engine_.engine(), c));
      }
      for (unsigned c = 0; c < config_.points.clients; ++c) issue_point(point_rngs_[c]);
    }
  }

  // Stops issuing after the duration (random mix); true when nothing is outstanding.
  bool finished() {
    if (config_.mix == QueryMix::random && !stopping_.load() && seconds_between(start_, Clock::now()) >= config_.duration) {
      stopping_.store(true);
    }
    std::lock_guard lock(mutex_);
    return (config_.mix == QueryMix::standard || stopping_.load()) && outstanding_ == 0;
  }

  WorkloadResult result() {
    std::lock_guard lock(mutex_);
    result_.measured_seconds = config_.mix == QueryMix::standard ? seconds_between(start_, last_completion_)
                                                                 : config_.duration - config_.warmup;
    return result_;
  }

 private:
  SsbQuery random_query(CounterRng& rng) const { return draw_query(rng, config_.queries); }

  // Counted when it ends inside the measured window.
  bool counts(Clock::time_point end) const {
    const double t = seconds_between(start_, end);
    return config_.mix == QueryMix::standard || (t >= config_.warmup && t <= config_.duration);
  }

  // The next standard query, if any is left (counted outstanding from now on).
  std::optional<SsbQuery> next_standard(bool locked) {
    std::unique_lock lock(mutex_, std::defer_lock);
    if (!locked) lock.lock();
    if (next_standard_ >= standard_.size()) return std::nullopt;
    ++outstanding_;
    return standard_[next_standard_++];
  }

  // `client`: the random-mix client's number (its stream is `rng`).
  void issue(SsbQuery query, CounterRng* rng, std::size_t client = 0) {
    if (rng != nullptr) {
      std::lock_guard lock(mutex_);
      ++outstanding_;
    }
    engine_.star().submit(make_request(query, rng, client));
  }

  // The request of a query (counted outstanding already) and what happens
  // when its answer comes: counted, kept, and the client's next query issued.
  StarRequest make_request(SsbQuery query, CounterRng* rng, std::size_t client = 0) {
    const Clock::time_point issued = Clock::now();
    StarRequest request;
    request.plan = plan_of(query);
    auto seen = std::make_shared<SeenVersions>();
    if (config_.keep_answers) request.seen = [seen](const SeenVersions& v) { *seen = v; };
    request.done = [this, query, rng, client, issued, seen](std::vector<ResultRow> rows) {
      const Clock::time_point now = Clock::now();
      std::optional<SsbQuery> next;
      {
        std::lock_guard lock(mutex_);
        --outstanding_;
        last_completion_ = now;
        if (counts(now)) {
          const auto ns = static_cast<std::uint64_t>(seconds_between(issued, now) * 1e9);
          ++result_.completed;
          ++result_.completed_by_query[static_cast<std::size_t>(query.name)];
          if (rng != nullptr) ++result_.completed_by_client[client];
          result_.latency.add(ns);
          result_.latency_by_flight[static_cast<std::size_t>(flight(query.name) - 1)].add(ns);
        }
        if (config_.keep_answers) result_.answers.push_back({query, std::move(rows), std::move(*seen)});
        if (rng == nullptr) next = next_standard(true);
      }
      if (next) {
        issue(*next, nullptr);
      } else if (rng != nullptr && !stopping_.load()) {
        issue(random_query(*rng), rng, client);
      }
    };
    return request;
  }

  void issue_point(CounterRng& rng) {
    const PointWorkload& p = config_.points;
    PointRequest request;
    request.key = p.key_of(1 + static_cast<std::int64_t>(rng.next_u64() % static_cast<std::uint64_t>(p.keys)));
    request.update = rng.next_double() < p.update_fraction;
    request.column = p.update_column;
    request.value = p.update_low + static_cast<std::int64_t>(rng.next_u64() % static_cast<std::uint64_t>(p.update_high - p.update_low + 1));
    request.projection = p.projection;
    {
      std::lock_guard lock(mutex_);
      ++outstanding_;
    }
    const Clock::time_point issued = Clock::now();
    const bool update = request.update;
    request.done = [this, &rng, issued, update](std::optional<std::vector<std::int64_t>> row) {
      const Clock::time_point now = Clock::now();
      {
        std::lock_guard lock(mutex_);
        --outstanding_;
        if (counts(now)) {
          ++result_.point_queries;
          result_.updates += update ? 1 : 0;
          result_.lookups_found += row.has_value() ? 1 : 0;
          result_.point_latency.add(static_cast<std::uint64_t>(seconds_between(issued, now) * 1e9));
        }
      }
      if (stopping_.load() || config_.mix != QueryMix::random) return;
      if (config_.points.think_seconds > 0) {
        pace(&rng);
      } else {
        issue_point(rng);
      }
    };
    engine_.lookups()->submit(std::move(request));
  }

  // Point-query clients that think: their next query is issued by the
  // pacer thread once the think time has passed.
  void pace(CounterRng* rng) {
    {
      std::lock_guard lock(pace_mutex_);
      thinking_.push({Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(config_.points.think_seconds)),
                      rng});
    }
    pace_cv_.notify_one();
  }
  void run_pacer() {
    std::unique_lock lock(pace_mutex_);
    while (!stopping_.load()) {
      if (thinking_.empty()) {
        pace_cv_.wait_for(lock, std::chrono::milliseconds(10));
        continue;
      }
      const auto due = thinking_.top().due;
      if (Clock::now() < due) {
        pace_cv_.wait_until(lock, due);
        continue;
      }
      CounterRng* rng = thinking_.top().rng;
      thinking_.pop();
      lock.unlock();
      issue_point(*rng);
      lock.lock();
    }
  }
  struct Thinking {
    Clock::time_point due;
    CounterRng* rng;
    bool operator<(const Thinking& o) const { return due > o.due; }  // earliest on top
  };

 public:
  void start_pacer() {
    if (config_.points.clients > 0 && config_.points.think_seconds > 0) pacer_ = std::thread([this] { run_pacer(); });
  }
  void stop_pacer() {
    stopping_.store(true);
    pace_cv_.notify_all();
    if (pacer_.joinable()) pacer_.join();
  }

 private:
  QueryEngine& engine_;
  const WorkloadConfig& config_;
  const Clock::time_point start_;
  std::deque<CounterRng> rngs_;        // deque: clients keep pointers to theirs
  std::vector<SsbQuery> standard_;     // the standard mix's queries, in the order they are issued
  std::size_t next_standard_ = 0;
  std::deque<CounterRng> point_rngs_;
  std::mutex pace_mutex_;
  std::condition_variable pace_cv_;
  std::priority_queue<Thinking> thinking_;
  std::thread pacer_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::uint64_t outstanding_ = 0;
  Clock::time_point last_completion_ = Clock::now();
  WorkloadResult result_;
};

}  // namespace

CounterRng client_stream(std::uint64_t seed, int engine, unsigned client) {
  return CounterRng(seed, (std::uint64_t{1} << 40) + (static_cast<std::uint64_t>(engine) << 20) + client, 0);
}

CounterRng point_client_stream(std::uint64_t seed, int engine, unsigned client) {
  return CounterRng(seed, (std::uint64_t{2} << 40) + (static_cast<std::uint64_t>(engine) << 20) + client, 0);
}

SsbQuery draw_query(CounterRng& rng, const std::vector<QueryName>& pool) {
  const QueryName name = pool.empty() ? static_cast<QueryName>(rng.next_u64() % kQueryNames) : pool[rng.next_u64() % pool.size()];
  return {name, random_parameters(name, rng)};
}

WorkloadResult run_workload(QueryEngine& engine, const WorkloadConfig& config, const std::function<void()>& tick) {
  if (config.mix == QueryMix::random && config.clients == 0 && config.points.clients == 0) {
    throw UsageError("--clients and --lookup-clients are both 0: there is nothing to run");
  }
  if (config.mix == QueryMix::standard && config.clients == 0) throw UsageError("--queries standard needs --clients 1 or more");
  if (config.warmup >= config.duration && config.mix == QueryMix::random) {
    throw UsageError("--warmup must be shorter than --duration");
  }
  Driver driver(engine, config);
  driver.start_clients();
  driver.start_pacer();
  try {
    while (!driver.finished()) {
      tick();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  } catch (...) {
    driver.stop_pacer();
    throw;
  }
  driver.stop_pacer();
  return driver.result();
}

}  // namespace hpcdb::ssb
