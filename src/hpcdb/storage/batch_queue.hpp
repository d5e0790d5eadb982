#pragma once
// The queue in front of an always-on operator: producers push, the
// operator's thread takes everything that is pending at once (one batch
// cycle's worth), waiting while there is nothing.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <vector>

namespace hpcdb {

template <class T>
class BatchQueue {
 public:
  void push(T item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    ready_.notify_one();
  }
  // Several items at once: a taker sees all of them or none.
  void push_all(std::vector<T> items) {
    {
      std::lock_guard lock(mutex_);
      for (T& item : items) items_.push_back(std::move(item));
    }
    ready_.notify_one();
  }
  // Everything pending; waits up to `timeout` for something (empty if none came).
  std::vector<T> take_all(std::chrono::microseconds timeout) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, timeout, [&] { return !items_.empty() || closed_; });
    return std::exchange(items_, {});
  }
  // Wakes a waiting taker for good (it then sees closed()).
  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }
  bool closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return items_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<T> items_;
  bool closed_ = false;
};

}  // namespace hpcdb
