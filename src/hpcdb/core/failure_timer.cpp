#include "hpcdb/core/failure_timer.hpp"

#include <chrono>

namespace hpcdb {

FailureTimer::FailureTimer(const InjectedFailure& failure, int rank) {
  if (!failure.on(rank) || !failure.at.empty()) return;
  thread_ = std::thread([this, failure] {
    std::unique_lock lock(mutex_);
    if (cancelled_.wait_for(lock, std::chrono::duration<double>(failure.after_seconds), [&] { return done_; })) return;
    failure.fire();
  });
}

FailureTimer::~FailureTimer() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  cancelled_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace hpcdb
