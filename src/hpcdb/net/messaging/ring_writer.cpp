#include "hpcdb/net/messaging/ring_writer.hpp"

#include <cstring>

#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

RingWriter::RingWriter(int self, int target, Priority priority, bool coalesce, std::size_t ring_bytes)
    : self_(self), target_(target), priority_(priority), coalesce_(coalesce), capacity_(ring_bytes) {
  wrap_marker_.payload_bytes = MessageHeader::kWrapMarker;
  // The staging buffer mirrors the ring: a batch never spans more than the
  // ring, so its records never overlap in it.
  if (coalesce_) staging_.resize(capacity_);
}

bool RingWriter::make_room(const RingWindow& window, std::size_t bytes) {
  if (head_ + bytes - tail_ <= capacity_) return true;
  window.sync();
  tail_ = window.load_word(window.tail_offset(target_, priority_));
  return head_ + bytes - tail_ <= capacity_;
}

void RingWriter::wrap(const RingWindow& window, std::size_t gap) {
  const std::size_t offset = head_ % capacity_;
  // Only the size word is read; 8 bytes always fit, records being multiples of 8.
  if (coalesce_) {
    std::memcpy(staging_.data() + offset, &wrap_marker_, kRecordAlignment);
  } else {
    window.put(&wrap_marker_, kRecordAlignment, target_, window.ring_offset(self_, priority_) + static_cast<MPI_Aint>(offset));
  }
  head_ += gap;
}

void RingWriter::place(const RingWindow& window, Outgoing& message, std::size_t record) {
  const std::size_t offset = head_ % capacity_;
  if (coalesce_) {
    std::memcpy(staging_.data() + offset, message.block.memory(), message.wire_bytes);
    message.block.reset();  // the copy is what goes out
  } else {
    // The pooled buffer holds the padding too (its size class counts it).
    window.put(message.block.memory(), record, target_, window.ring_offset(self_, priority_) + static_cast<MPI_Aint>(offset));
  }
  head_ += record;
}

void RingWriter::put_staged(const RingWindow& window) {
  const MPI_Aint ring = window.ring_offset(self_, priority_);
  const std::size_t from = staged_from_ % capacity_;
  const std::size_t bytes = head_ - staged_from_;
  const std::size_t first = std::min(bytes, capacity_ - from);
  window.put(staging_.data() + from, first, target_, ring + static_cast<MPI_Aint>(from));
  if (bytes > first) window.put(staging_.data(), bytes - first, target_, ring);
}

std::size_t RingWriter::write_batch(const RingWindow& window, std::size_t most, LayerCounters& counters) {
  if (queue_.empty()) return 0;
  std::unique_lock lock(write_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return 0;
  batch_.clear();
  queue_.take(most, batch_);
  staged_from_ = head_;
  std::size_t written = 0;
  std::uint64_t payload = 0;
  for (; written < batch_.size(); ++written) {
    Outgoing& m = batch_[written];
    const std::size_t record = ring_record_bytes(m.wire_bytes - sizeof(MessageHeader));
    const std::size_t offset = head_ % capacity_;
    // A record that would straddle the end waits at the start: the wrap
    // marker goes out first, even if the record must then wait for room,
    // since the reader has to pass the marker before the start is free.
    if (offset + record > capacity_) {
      if (!make_room(window, capacity_ - offset)) break;
      wrap(window, capacity_ - offset);
    }
    if (!make_room(window, record)) break;
    place(window, m, record);
    payload += m.wire_bytes - sizeof(MessageHeader);
  }
  queue_.put_back(batch_, written);
  if (written == 0) {
    if (full_since_.load(std::memory_order_relaxed) == 0) full_since_.store(monotonic_ns(), std::memory_order_relaxed);
    LayerCounters::bump(counters.ring_full_waits);
  } else {
    full_since_.store(0, std::memory_order_relaxed);
  }
  if (head_ == staged_from_) return 0;  // not even a wrap marker went out
  if (coalesce_) {
    put_staged(window);
  }
  LayerCounters::bump(counters.ring_puts, coalesce_ ? 1 : written);
  window.flush(target_);  // the records are in place before the head says so
  batch_.clear();         // zero-copy buffers go back to the pool
  head_word_ = head_;
  window.put_word(&head_word_, target_, window.head_offset(self_, priority_));
  window.flush(target_);
  LayerCounters::bump(counters.head_publications);
  auto& sent = counters.ring_sent[static_cast<std::size_t>(priority_)];
  sent.messages.fetch_add(written, std::memory_order_relaxed);
  sent.bytes.fetch_add(payload, std::memory_order_relaxed);
  return written;
}

}  // namespace hpcdb
