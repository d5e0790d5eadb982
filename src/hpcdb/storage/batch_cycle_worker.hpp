#pragma once
// The lifecycle of an always-on batch-cycle operator (SharedDB's model):
// producers push work items from any thread; the operator's own thread takes
// everything pending at once and runs one cycle over it, again and again,
// until it is stopped. Whatever ends the thread with an exception is kept,
// for check() to rethrow on the thread that watches the operator.
//
// The operators of the storage engine (shared scans, key-value cycles) and
// of the query engine (star queries, point queries) all run on one of these;
// each supplies its cycle and keeps its own statistics.
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "hpcdb/storage/batch_queue.hpp"
#include "hpcdb/storage/thread_priority.hpp"

namespace hpcdb {

struct BatchCycleOptions {
  bool background = false;          // the thread in the idle scheduling class (thread_priority.hpp)
  std::function<void()> on_stop;    // called by stop() once the stop is flagged, before the thread is joined
                                    // (to wake a cycle that waits for something else than the queue)
  std::function<void()> on_idle;    // called on the thread when nothing came for a while
};

template <class Item>
class BatchCycleWorker {
 public:
  using Cycle = std::function<void(std::vector<Item>& items)>;

  explicit BatchCycleWorker(Cycle cycle, BatchCycleOptions options = {})
      : cycle_(std::move(cycle)), options_(std::move(options)) {}
  ~BatchCycleWorker() { stop(); }
  BatchCycleWorker(const BatchCycleWorker&) = delete;
  BatchCycleWorker& operator=(const BatchCycleWorker&) = delete;

  void push(Item item) { queue_.push(std::move(item)); }
  void push_all(std::vector<Item> items) { queue_.push_all(std::move(items)); }
  void start() { thread_ = std::thread([this] { run(); }); }
  // Ends the thread once the cycle under way returns (a cycle that waits may
  // look at stopping()). Idempotent.
  void stop() {
    stop_.store(true);
    queue_.close();
    if (options_.on_stop) options_.on_stop();
    if (thread_.joinable()) thread_.join();
  }
  bool stopping() const { return stop_.load(); }
  // Rethrows what ended the thread, if anything did.
  void check() const {
    std::lock_guard lock(failure_mutex_);
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  // How long the thread sleeps on an empty queue before it looks at the stop
  // flag again (a push or stop() wakes it at once).
  static constexpr std::chrono::milliseconds kIdleWait{50};

  void run() {
    if (options_.background) run_in_background();
    try {
      while (!stop_.load()) {
        std::vector<Item> items = queue_.take_all(kIdleWait);
        if (!items.empty()) {
          cycle_(items);
        } else if (options_.on_idle && !stop_.load()) {
          options_.on_idle();
        }
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex_);
      failure_ = std::current_exception();
    }
  }

  Cycle cycle_;
  BatchCycleOptions options_;
  BatchQueue<Item> queue_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace hpcdb
