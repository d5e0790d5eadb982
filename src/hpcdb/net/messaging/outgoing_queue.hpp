#pragma once
// Messages waiting for a network thread: pooled buffers whose header is
// filled in. Any thread pushes at the back; the one thread that holds the
// consumer's lock takes from the front, and may put back at the front what it
// could not send, so the queue keeps sending order.
#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>
#include <vector>

#include "hpcdb/net/messaging/pooled_buffer.hpp"

namespace hpcdb {

struct Outgoing {
  PooledBlock block;
  std::size_t wire_bytes = 0;  // header and payload (unpadded)
  int target = 0;
};

class OutgoingQueue {
 public:
  void push(Outgoing&& message) {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(message));
    size_.fetch_add(1, std::memory_order_release);
  }
  // Up to `most` messages from the front, appended to `into`.
  void take(std::size_t most, std::vector<Outgoing>& into) {
    if (empty()) return;
    std::lock_guard lock(mutex_);
    for (; most > 0 && !queue_.empty(); --most) {
      into.push_back(std::move(queue_.front()));
      queue_.pop_front();
      size_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  // Puts back messages [from, end) of `taken` at the front, in their order.
  void put_back(std::vector<Outgoing>& taken, std::size_t from) {
    if (from >= taken.size()) return;
    std::lock_guard lock(mutex_);
    for (std::size_t i = taken.size(); i-- > from;) queue_.push_front(std::move(taken[i]));
    size_.fetch_add(taken.size() - from, std::memory_order_release);
    taken.resize(from);
  }
  bool empty() const { return size_.load(std::memory_order_acquire) == 0; }
  std::size_t size() const { return size_.load(std::memory_order_acquire); }

 private:
  std::mutex mutex_;
  std::deque<Outgoing> queue_;
  std::atomic<std::size_t> size_{0};
};

}  // namespace hpcdb
