#include "hpcdb/net/messaging/pooled_buffer.hpp"

#include <bit>
#include <chrono>
#include <cstdlib>
#include <new>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/messaging/message_header.hpp"

namespace hpcdb {

std::byte* PooledBlock::payload() const { return memory_ + sizeof(MessageHeader); }

std::size_t PooledBlock::capacity() const { return BufferPool::class_bytes(class_); }

void PooledBlock::reset() {
  if (memory_ != nullptr) pool_->give_back(memory_, class_);
  pool_ = nullptr;
  memory_ = nullptr;
}

unsigned BufferPool::class_of(std::size_t payload_bytes) {
  // Room for the header in front and for padding the record to 8 bytes.
  const std::size_t bytes = ring_record_bytes(payload_bytes);
  const unsigned log2 = static_cast<unsigned>(std::bit_width(bytes - 1));
  return log2 <= kSmallestClassLog2 ? 0 : log2 - kSmallestClassLog2;
}

BufferPool::BufferPool(std::size_t max_payload, std::size_t limit_bytes, double stall_seconds)
    : max_payload_(max_payload), limit_(limit_bytes), stall_seconds_(stall_seconds), classes_(class_of(max_payload) + 1) {}

BufferPool::~BufferPool() {
  for (SizeClass& c : classes_) {
    for (std::byte* m : c.free) std::free(m);
  }
}

std::byte* BufferPool::allocate(std::size_t bytes) {
  void* m = std::aligned_alloc(64, bytes);
  if (m == nullptr) throw Error("the message layer could not allocate a buffer of " + format_bytes(static_cast<double>(bytes)));
  return static_cast<std::byte*>(m);
}

bool BufferPool::make_room(std::size_t bytes) {
  // Free cached buffers, the least recently released of each class first,
  // largest classes first, until `bytes` more fit under the limit.
  for (std::size_t k = classes_.size(); k-- > 0 && held_.load() + bytes > limit_;) {
    std::lock_guard lock(classes_[k].mutex);
    auto& free = classes_[k].free;
    while (!free.empty() && held_.load() + bytes > limit_) {
      std::free(free.front());
      free.pop_front();
      held_ -= class_bytes(static_cast<unsigned>(k));
    }
  }
  return held_.load() + bytes <= limit_;
}

PooledBlock BufferPool::acquire(std::size_t payload_bytes, OverLimit over_limit) {
  if (payload_bytes > max_payload_) {
    throw UsageError("a message of " + format_bytes(static_cast<double>(payload_bytes)) +
                     " exceeds the message layer's largest message (" + format_bytes(static_cast<double>(max_payload_)) +
                     ", --max-message)");
  }
  const unsigned k = class_of(payload_bytes);
  ++acquired_;
  {
    std::lock_guard lock(classes_[k].mutex);
    auto& free = classes_[k].free;
    if (!free.empty()) {
      std::byte* m = free.back();
      free.pop_back();
      ++reused_;
      return PooledBlock(this, m, k);
    }
  }
  const std::size_t bytes = class_bytes(k);
  if (held_.load() + bytes > limit_ && !make_room(bytes)) {
    if (over_limit == OverLimit::give_up) {
      --acquired_;
      return {};
    }
    if (over_limit == OverLimit::wait) {
      std::unique_lock lock(wait_mutex_);
      ++waiters_;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(stall_seconds_);
      bool room = false;
      while (!(room = make_room(bytes))) {
        if (released_.wait_until(lock, deadline) == std::cv_status::timeout && !(room = make_room(bytes))) break;
      }
      --waiters_;
      if (!room) {
        throw Error("the message layer's buffers have held " + format_bytes(static_cast<double>(held_.load())) +
                    " (--pool-bytes " + format_bytes(static_cast<double>(limit_)) + ") for " +
                    std::to_string(stall_seconds_) +
                    " s without a release: release received messages, or raise --pool-bytes");
      }
    }
  }
  const std::size_t now = held_ += bytes;
  std::size_t peak = peak_.load();
  while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
  }
  try {
    return PooledBlock(this, allocate(bytes), k);
  } catch (...) {
    held_ -= bytes;
    throw;
  }
}

void BufferPool::give_back(std::byte* memory, unsigned size_class) {
  {
    std::lock_guard lock(classes_[size_class].mutex);
    classes_[size_class].free.push_back(memory);
  }
  if (waiters_.load() > 0) {
    std::lock_guard lock(wait_mutex_);
    released_.notify_all();
  }
}

BufferPoolStats BufferPool::stats() const {
  return {acquired_.load(), reused_.load(), held_.load(), peak_.load()};
}

}  // namespace hpcdb
