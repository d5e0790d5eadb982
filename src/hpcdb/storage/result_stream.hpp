#pragma once
// Where a storage operator's results go: a ResultChannel delivers whole
// messages to one query engine (over the message layer, or by a function
// call when the engine runs in the same process), and a ResultStream numbers
// the messages of one batch for one engine: START BATCH is sequence 0, the
// result pieces follow from 1, the last one flagged END BATCH. Taking a
// sequence number and handing the piece on happen under one lock, so that
// parallel workers may ship pieces of the same batch.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>

#include "hpcdb/net/messaging/message_layer_config.hpp"
#include "hpcdb/storage/batch_messages.hpp"

namespace hpcdb {

// A message being written: `capacity()` bytes at `data()`.
class PieceBuffer {
 public:
  virtual ~PieceBuffer() = default;
  virtual std::byte* data() = 0;
  virtual std::size_t capacity() const = 0;
};

// A message that arrived: its payload stays valid while the holder lives.
class ReceivedPayload {
 public:
  virtual ~ReceivedPayload() = default;
  virtual std::span<const std::byte> bytes() const = 0;
};

class ResultChannel {
 public:
  virtual ~ResultChannel() = default;
  virtual std::unique_ptr<PieceBuffer> acquire(std::size_t bytes) = 0;
  // Hands the first `bytes` of `buffer` to the engine.
  virtual void deliver(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes, Priority priority) = 0;
};

struct StreamCounts {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;  // payload bytes delivered
};

class ResultStream {
 public:
  ResultStream(ResultChannel& channel, Priority priority) : channel_(channel), priority_(priority) {}

  void send_start(const StartBatch& start);
  std::unique_ptr<PieceBuffer> acquire(std::size_t bytes) { return channel_.acquire(bytes); }
  // `buffer` starts with a ResultPieceHeader; its sequence number is set here.
  void ship(std::unique_ptr<PieceBuffer> buffer, std::size_t bytes);
  StreamCounts counts() const {
    std::lock_guard lock(mutex_);
    return counts_;
  }

 private:
  ResultChannel& channel_;
  Priority priority_;
  mutable std::mutex mutex_;
  std::uint32_t next_sequence_ = 0;
  StreamCounts counts_;
};

}  // namespace hpcdb
