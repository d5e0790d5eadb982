#pragma once
// Runs one function on T threads of a rank. Thread 0 is the calling thread,
// so that with T = 1 nothing is spawned and MPI calls stay on the main thread.
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hpcdb {

// Calls body(thread_index) on `threads` threads and waits for all of them.
// The first exception thrown by any thread is rethrown on the caller.
template <class Body>
void run_on_threads(unsigned threads, Body&& body) {
  if (threads <= 1) {
    body(0u);
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto guarded = [&](unsigned t) {
    try {
      body(t);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(guarded, t);
  guarded(0);
  for (auto& h : helpers) h.join();
  if (failure) std::rethrow_exception(failure);
}

// Hands out task indices 0..count-1 to whichever thread asks first.
class TaskCounter {
 public:
  explicit TaskCounter(std::size_t count) : count_(count) {}
  // Returns false when no task is left.
  bool next(std::size_t& task) {
    task = next_.fetch_add(1, std::memory_order_relaxed);
    return task < count_;
  }

 private:
  std::size_t count_;
  std::atomic<std::size_t> next_{0};
};

// Splits [0, total) into `parts` nearly equal ranges; returns the start of range `part`.
constexpr std::size_t split_point(std::size_t total, std::size_t parts, std::size_t part) {
  // total / parts * part + (total % parts) * part / parts, without overflow for any realistic sizes.
  return total / parts * part + (total % parts) * part / parts;
}

}  // namespace hpcdb
