#pragma once
// The sending end of one ring (this rank -> target, one priority class).
// A batch takes queued messages while they fit in the ring's free space,
// writes each record with MPI_Put straight from its pooled buffer (or copies
// them into one staging buffer and puts that, when coalescing), flushes,
// and only then publishes the new head, once per batch. Records never
// straddle the ring's end: a wrap marker sends the reader back to the start.
// The tail the receiver publishes into this rank's window is re-read only
// when the cached one says the ring is full.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "hpcdb/net/messaging/layer_counters.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/net/messaging/outgoing_queue.hpp"
#include "hpcdb/net/messaging/ring_window.hpp"

namespace hpcdb {

class RingWriter {
 public:
  RingWriter(int self, int target, Priority priority, bool coalesce, std::size_t ring_bytes);

  OutgoingQueue& queue() { return queue_; }
  // Writes one batch of at most `most` messages, unless another thread is
  // writing this ring; returns how many it wrote.
  std::size_t write_batch(const RingWindow& window, std::size_t most, LayerCounters& counters);
  // Since when (monotonic ns) messages have waited for room, or 0.
  std::uint64_t full_since() const { return full_since_.load(std::memory_order_relaxed); }
  int target() const { return target_; }

 private:
  bool make_room(const RingWindow& window, std::size_t bytes);
  void wrap(const RingWindow& window, std::size_t gap);
  void place(const RingWindow& window, Outgoing& message, std::size_t record);
  void put_staged(const RingWindow& window);

  int self_;
  int target_;
  Priority priority_;
  bool coalesce_;
  std::size_t capacity_;
  OutgoingQueue queue_;
  std::mutex write_mutex_;
  std::uint64_t head_ = 0;         // bytes written
  std::uint64_t tail_ = 0;         // bytes consumed, as last read
  std::uint64_t head_word_ = 0;    // source of the head's MPI_Accumulate
  MessageHeader wrap_marker_;      // source of wrap markers' MPI_Put
  std::vector<Outgoing> batch_;
  std::vector<std::byte> staging_;  // coalescing: mirrors ring positions [staged_from_, head_)
  std::uint64_t staged_from_ = 0;
  std::atomic<std::uint64_t> full_since_{0};
};

}  // namespace hpcdb
