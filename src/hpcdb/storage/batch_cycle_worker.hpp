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

template <class Item>
class BatchCycleWorker {
 public:
  using Cycle = std::function<void(std::vector<Item>& items)>;

  // `background`: the thread runs in the idle scheduling class
  // (thread_priority.hpp). `on_stop`: called by stop() after the stop is
  // flagged and before the thread is joined (to wake a cycle that waits for
  // something else than the queue).
  explicit BatchCycleWorker(Cycle cycle, bool background = false, std::function<void()> on_stop = {})
      : cycle_(std::move(cycle)), background_(background), on_stop_(std::move(on_stop)) {}
  ~BatchCycleWorker() { stop(); }
  BatchCycleWorker(const BatchCycleWorker&) = delete;
  BatchCycleWorker& operator=(const BatchCycleWorker&) = delete;

  void push(Item item) { queue_.push(std::move(item)); }
  void start() { thread_ = std::thread([this] { run(); }); }
  // Ends the thread once the cycle under way returns (a cycle that waits may
  // look at stopping()). Idempotent.
  void stop() {
    stop_.store(true);
    queue_.close();
    if (on_stop_) on_stop_();
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
    if (background_) run_in_background();
    try {
      while (!stop_.load()) {
        std::vector<Item> items = queue_.take_all(kIdleWait);
        if (!items.empty()) cycle_(items);
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex_);
      failure_ = std::current_exception();
    }
  }

  Cycle cycle_;
  bool background_;
  std::function<void()> on_stop_;
  BatchQueue<Item> queue_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace hpcdb
