#pragma once
// Message buffers from a pool of power-of-two size classes. Each class keeps
// its free buffers as a stack, so acquiring returns the most recently
// released one (its pages are warm, and an RDMA-capable MPI finds its
// registration still cached); when the pool is over its byte limit, buffers
// released longest ago are freed first. Every buffer starts with room for a
// MessageHeader in front of its payload.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

namespace hpcdb {

class BufferPool;

// One buffer, owned; returns to its pool when destroyed.
class PooledBlock {
 public:
  PooledBlock() = default;
  PooledBlock(PooledBlock&& other) noexcept { swap(other); }
  PooledBlock& operator=(PooledBlock&& other) noexcept {
    PooledBlock tmp(std::move(other));
    swap(tmp);
    return *this;
  }
  PooledBlock(const PooledBlock&) = delete;
  PooledBlock& operator=(const PooledBlock&) = delete;
  ~PooledBlock() { reset(); }

  std::byte* memory() const { return memory_; }  // the header, then the payload
  std::byte* payload() const;
  std::size_t capacity() const;  // bytes from memory() on
  explicit operator bool() const { return memory_ != nullptr; }
  void reset();

 private:
  friend class BufferPool;
  PooledBlock(BufferPool* pool, std::byte* memory, unsigned size_class)
      : pool_(pool), memory_(memory), class_(size_class) {}
  void swap(PooledBlock& other) noexcept {
    std::swap(pool_, other.pool_);
    std::swap(memory_, other.memory_);
    std::swap(class_, other.class_);
  }
  BufferPool* pool_ = nullptr;
  std::byte* memory_ = nullptr;
  unsigned class_ = 0;
};

struct BufferPoolStats {
  std::uint64_t acquired = 0;  // buffers handed out
  std::uint64_t reused = 0;    // of which came from a class's stack
  std::uint64_t bytes_held = 0;       // all buffers, in use or free, now
  std::uint64_t peak_bytes_held = 0;
};

class BufferPool {
 public:
  static constexpr unsigned kSmallestClassLog2 = 6;  // 64 bytes

  // Buffers for payloads up to `max_payload` bytes; at most `limit_bytes` in
  // all buffers (see Wait), `stall_seconds` the longest wait.
  BufferPool(std::size_t max_payload, std::size_t limit_bytes, double stall_seconds);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // What acquire() does when the buffers would exceed the limit:
  enum class OverLimit {
    wait,      // wait for releases (Error after stall_seconds)
    give_up,   // return an empty block
    overdraw,  // allocate anyway
  };
  // A buffer whose payload holds at least `payload_bytes` (UsageError above
  // the maximum).
  PooledBlock acquire(std::size_t payload_bytes, OverLimit over_limit);

  std::size_t max_payload() const { return max_payload_; }
  static std::size_t class_bytes(unsigned size_class) { return std::size_t{1} << (size_class + kSmallestClassLog2); }
  static unsigned class_of(std::size_t payload_bytes);
  BufferPoolStats stats() const;

 private:
  friend class PooledBlock;
  struct SizeClass {
    std::mutex mutex;
    std::deque<std::byte*> free;  // back: most recently released
  };
  void give_back(std::byte* memory, unsigned size_class);
  bool make_room(std::size_t bytes);  // frees cached buffers, LRU first; true if under the limit now
  std::byte* allocate(std::size_t bytes);

  std::size_t max_payload_;
  std::size_t limit_;
  double stall_seconds_;
  std::vector<SizeClass> classes_;
  std::atomic<std::size_t> held_{0};
  std::atomic<std::size_t> peak_{0};
  std::atomic<std::uint64_t> acquired_{0};
  std::atomic<std::uint64_t> reused_{0};
  std::mutex wait_mutex_;  // for acquire()s that wait for a release
  std::condition_variable released_;
  std::atomic<unsigned> waiters_{0};
};

}  // namespace hpcdb
