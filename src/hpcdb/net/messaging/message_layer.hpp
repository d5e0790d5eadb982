#pragma once
// The message layer: one per process, shared by every operator that moves
// data by message (query batches and their results, shuffled tuples).
//
//   MessageLayer layer(cluster, config);              // collective
//   layer.register_handler(kResults, [&](Message& m) { consume(m.payload()); });
//   OutgoingBuffer b = layer.acquire(bytes);           // from the pool
//   fill(b.data(), b.size());
//   layer.send(std::move(b), target, kResults, {.priority = Priority::latency});
//   ...
//   layer.drain();                                    // collective: all handled
//
// Sending never blocks on the network: send() queues the buffer and returns;
// the layer's network threads write it out. A message of at most
// `config.threshold` payload bytes travels through a ring in the receiver's
// MPI window (one per ordered rank pair and priority class, written with
// MPI_Put straight from the pooled buffer); a larger one with MPI_Isend,
// received with MPI_Improbe/MPI_Mrecv into a pooled buffer. The receiving
// network thread calls the endpoint's handler.
//
// Thread safety: every member function may be called from any thread at any
// time (needs MPI_THREAD_MULTIPLE when the layer runs network threads), except
// the collective ones (constructor, drain(), close()), which every rank calls
// once at a time. Handlers run on the layer's network threads (or, with
// `threads = 0`, inside progress() and drain()); handlers of one endpoint may
// run concurrently when there are several network threads. A handler may call
// acquire(), send() and register_handler(), never drain() or close().
//
// Ordering: messages from one rank to another, of one priority class, that
// both take the ring arrive in sending order and are handled in that order by
// a single network thread. Nothing else is ordered: a large message can
// overtake a small one, latency-sensitive messages overtake best-effort ones,
// and several network threads handle messages concurrently. Where order
// matters, the sender stamps (stream, sequence) into SendOptions and the
// receiver restores the order (see sequence_reorderer.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/messaging/message_layer_config.hpp"
#include "hpcdb/net/messaging/message_layer_stats.hpp"
#include "hpcdb/net/messaging/pooled_buffer.hpp"

namespace hpcdb {

using EndpointId = std::uint32_t;

struct SendOptions {
  Priority priority = Priority::best_effort;
  std::uint32_t stream = 0;    // carried to the receiver unchanged
  std::uint64_t sequence = 0;  // carried to the receiver unchanged
};

// A buffer to send: `size()` payload bytes at `data()`, from the layer's pool.
// Move-only; returns to the pool when destroyed unless sent.
class OutgoingBuffer {
 public:
  OutgoingBuffer() = default;
  std::byte* data() const { return block_.payload(); }
  std::size_t size() const { return size_; }
  // Sends only the first `bytes` (at most size()).
  void shrink(std::size_t bytes);
  explicit operator bool() const { return static_cast<bool>(block_); }

 private:
  friend class MessageEngine;
  OutgoingBuffer(PooledBlock block, std::size_t size) : block_(std::move(block)), size_(size) {}
  PooledBlock block_;
  std::size_t size_ = 0;
};

// A received message. The layer hands it to the handler by reference; its
// payload stays valid until the handler returns. To keep it longer, move it
// (`Message kept = std::move(m);`): a message read straight from a ring is
// then copied into a pool buffer (its ring space is freed when the handler
// returns), one that arrived in a pool buffer is moved without a copy. A kept
// message returns its buffer to the pool when destroyed (or by release()).
class Message {
 public:
  Message() = default;
  Message(Message&& other);
  Message& operator=(Message&& other);
  Message(const Message&) = delete;
  Message& operator=(const Message&) = delete;
  ~Message() = default;

  int source() const { return source_; }
  EndpointId endpoint() const { return endpoint_; }
  Priority priority() const { return priority_; }
  std::uint32_t stream() const { return stream_; }
  std::uint64_t sequence() const { return sequence_; }
  std::span<const std::byte> payload() const { return {bytes_, size_}; }
  bool empty() const { return bytes_ == nullptr && size_ == 0 && !block_; }
  void release() { *this = Message(); }

 private:
  friend class MessageEngine;
  int source_ = -1;
  EndpointId endpoint_ = 0;
  Priority priority_ = Priority::best_effort;
  std::uint32_t stream_ = 0;
  std::uint64_t sequence_ = 0;
  const std::byte* bytes_ = nullptr;
  std::size_t size_ = 0;
  PooledBlock block_;              // owns bytes_ when set
  BufferPool* copy_pool_ = nullptr;  // set while bytes_ point into a ring
};

using MessageHandler = std::function<void(Message&)>;

class MessageEngine;  // the implementation (message_engine.hpp)

class MessageLayer {
 public:
  // Collective over the cluster's world. Checks the configuration (UsageError
  // naming the option) and the MPI thread level (network threads need
  // MPI_THREAD_MULTIPLE), allocates the rings' window and starts the network
  // threads.
  MessageLayer(const Cluster& cluster, const MessageLayerConfig& config);
  // Collective: close() unless closed; when an exception is unwinding, only
  // stops the network threads (the job is ending anyway).
  ~MessageLayer();
  MessageLayer(const MessageLayer&) = delete;
  MessageLayer& operator=(const MessageLayer&) = delete;

  const MessageLayerConfig& config() const;
  int rank() const;
  int ranks() const;

  // A buffer for `bytes` payload bytes (0 allowed), from the pool's
  // power-of-two size class (the most recently released buffer of that
  // class). Waits while the pool is over config.pool_bytes, except on a
  // network thread (inside a handler), which never waits. UsageError above
  // config.max_message.
  OutgoingBuffer acquire(std::size_t bytes);

  // Queues `buffer` for `target` (any rank, this one too) and its handler
  // for `endpoint`; returns at once. The buffer goes back to the pool once
  // the network is done with it.
  void send(OutgoingBuffer&& buffer, int target, EndpointId endpoint, SendOptions options = {});
  // Convenience: acquire, copy `bytes` in, send.
  void send_copy(std::span<const std::byte> bytes, int target, EndpointId endpoint, SendOptions options = {});

  // Sets (or replaces) the handler of `endpoint`. Messages that arrived for
  // it before it had a handler were kept, and are handed to it now, on this
  // thread.
  void register_handler(EndpointId endpoint, MessageHandler handler);

  // Returns a kept message's buffer to the pool (the same as destroying it).
  void release(Message&& message) { message.release(); }

  // One round of the network loop on the calling thread: the only progress
  // there is with `threads = 0`; harmless otherwise. True if it did anything.
  bool progress();

  // Whether messages this rank sent still wait to be handed to MPI or for
  // their MPI_Isend to complete (with `threads = 0`, progress() moves them).
  bool sending() const;

  // Collective: returns when every message that any rank sent before calling
  // drain() has been handled at its target (messages sent by handlers during
  // drain() may still be in flight). Error naming the silent ranks when no
  // message arrives for config.stall_timeout seconds while some are missing,
  // or when a message waits for an endpoint that has no handler.
  void drain();
  // Collective: drain(), stop the network threads, free the window.
  void close();

  // This rank's counters since construction.
  MessageLayerStats stats() const;

 private:
  std::unique_ptr<MessageEngine> engine_;
};

}  // namespace hpcdb
