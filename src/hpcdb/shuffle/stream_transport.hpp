#pragma once
// The part of a streaming shuffle design that moves batches: where a worker
// thread writes a batch for a destination (registered memory, or straight
// into the destination's receive ring), how a full batch travels, how the
// receiver is told, and how credits come back. The partitioning, the
// streams' sequence numbers and end-of-stream handling are the same for
// every design (streaming_shuffle.hpp).
//
// Flow control: each (worker, destination) stream may have at most
// `ShuffleConfig::buffers` batches that the receiver has not yet handed to
// its consumer; acquire() waits, while delivering arriving batches, until
// the destination returns a credit. So a receiver never runs out of buffers,
// and two ranks that fill each other's buffers cannot deadlock.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hpcdb/shuffle/batch_header.hpp"

namespace hpcdb {

// A buffer one worker fills for one destination: the header line, then room
// for rows_per_batch() rows (cache-line aligned).
struct BatchBuffer {
  BatchHeader* header = nullptr;
  std::byte* rows = nullptr;
  std::uint64_t slot = 0;  // the transport's own position of this buffer
};

// Where a transport delivers arrived batches (on the receiving worker).
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  virtual void deliver(unsigned worker, const BatchHeader& header, const std::byte* rows) = 0;
};

// Whether a receiver returns credits for a stream now: once `consumed` -
// `returned` batches reach half the stream's buffers, or any when nothing
// else arrived (`idle`), so a sender waits neither for every buffer nor
// forever.
inline bool credits_due(std::uint64_t consumed, std::uint64_t returned, unsigned buffers, bool idle) {
  const std::uint64_t pending = consumed - returned;
  return pending > 0 && (idle || pending >= std::max(1u, (buffers + 1) / 2));
}

struct TransportResources {
  std::uint64_t registered_bytes = 0;  // memory set aside for communication (send and receive buffers, rings)
  std::uint64_t endpoints = 0;         // connections this rank opened (see each design)
};

class StreamTransport {
 public:
  virtual ~StreamTransport() = default;

  // Called by each worker before its first acquire() of an exchange.
  virtual void start(unsigned worker) { (void)worker; }

  // The worker's next buffer for `dest` (never this rank), once `dest` has
  // a buffer free for the worker's stream; delivers arriving batches to
  // `sink` while it waits.
  virtual BatchBuffer acquire(unsigned worker, int dest, BatchSink& sink) = 0;

  // Ships a buffer from acquire() whose header is complete. Buffers of one
  // stream may be sent in another order than acquired.
  virtual void send(unsigned worker, int dest, const BatchBuffer& buffer) = 0;

  // Delivers batches that arrived for `worker` to `sink`, returns credits,
  // and progresses sends. True when anything arrived.
  virtual bool poll(unsigned worker, BatchSink& sink) = 0;

  // Once the worker has sent its last batch and received every stream:
  // waits until its sends are complete and every credit has come back, so
  // that nothing of this exchange is in flight when it returns.
  virtual void finish(unsigned worker, BatchSink& sink) = 0;

  virtual TransportResources resources() const = 0;
};

}  // namespace hpcdb
