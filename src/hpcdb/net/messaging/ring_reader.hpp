#pragma once
// The receiving end of one ring (source -> this rank, one priority class).
// The reader polls the head word the sender publishes, takes it as its
// snapshot and hands the records up to it, in order, to `deliver` straight
// from the ring (no copy). When it has handled everything up to the snapshot
// it publishes its tail into the sender's window: the sender's only sign that
// ring space is free again. Nobody else ever writes this ring's records, so
// the reader needs no synchronisation with the sender but the two words.
#include <cstdint>
#include <mutex>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/messaging/layer_counters.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/net/messaging/ring_window.hpp"

namespace hpcdb {

class RingReader {
 public:
  RingReader(int self, int source, Priority priority, std::size_t ring_bytes)
      : self_(self), source_(source), priority_(priority), capacity_(ring_bytes) {}

  // Hands at most `most` records to deliver(header, payload) unless another
  // thread reads this ring; returns how many. Call window.sync() before a
  // round of reads.
  template <class Deliver>
  std::size_t read(const RingWindow& window, std::size_t most, LayerCounters& counters, Deliver&& deliver) {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return 0;
    if (position_ == snapshot_) {
      snapshot_ = window.load_word(window.head_offset(source_, priority_));
      if (position_ == snapshot_) return 0;
    }
    const std::byte* ring = window.local(window.ring_offset(source_, priority_));
    std::size_t handled = 0;
    while (position_ < snapshot_ && handled < most) {
      const std::size_t offset = position_ % capacity_;
      const auto* header = reinterpret_cast<const MessageHeader*>(ring + offset);
      if (header->payload_bytes == MessageHeader::kWrapMarker) {
        position_ += capacity_ - offset;
        continue;
      }
      check(*header, offset);
      position_ += ring_record_bytes(header->payload_bytes);
      ++handled;
      deliver(*header, ring + offset + sizeof(MessageHeader));
    }
    if (position_ == snapshot_) publish_tail(window, counters);
    return handled;
  }

 private:
  void check(const MessageHeader& header, std::size_t offset) const {
    if (header.magic != MessageHeader::kMagic || ring_record_bytes(header.payload_bytes) > capacity_ - offset) {
      throw Error("the message layer found a damaged record in the ring from rank " + std::to_string(source_) +
                  " at offset " + std::to_string(offset));
    }
  }
  void publish_tail(const RingWindow& window, LayerCounters& counters) {
    tail_word_ = position_;
    window.put_word(&tail_word_, source_, window.tail_offset(self_, priority_));
    window.flush(source_);
    LayerCounters::bump(counters.tail_publications);
  }

  int self_;
  int source_;
  Priority priority_;
  std::size_t capacity_;
  std::mutex mutex_;
  std::uint64_t position_ = 0;  // bytes read
  std::uint64_t snapshot_ = 0;  // the head as last read
  std::uint64_t tail_word_ = 0;  // source of the tail's MPI_Accumulate
};

}  // namespace hpcdb
