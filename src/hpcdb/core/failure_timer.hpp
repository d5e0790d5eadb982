#pragma once
// Fires an injected failure by time (InjectedFailure::after_seconds) from a
// thread of its own: for runs whose threads never pass a point where they
// could read the clock themselves. Destroying the timer first cancels it.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "hpcdb/core/injected_failure.hpp"

namespace hpcdb {

class FailureTimer {
 public:
  // Starts only on the rank that is to fail.
  FailureTimer(const InjectedFailure& failure, int rank);
  ~FailureTimer();
  FailureTimer(const FailureTimer&) = delete;
  FailureTimer& operator=(const FailureTimer&) = delete;

 private:
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cancelled_;
  bool done_ = false;
};

}  // namespace hpcdb
