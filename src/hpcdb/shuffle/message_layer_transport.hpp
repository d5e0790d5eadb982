#pragma once
// message-layer: batches travel through the engine's message layer
// (net/messaging/). A batch buffer is one of the layer's pooled buffers; a
// full batch is sent best-effort to the endpoint of its stream's receiving
// worker, through the receiver's one-sided ring when it is at most the
// hybrid threshold, else with MPI_Isend into an MPI_Mrecv'd pool buffer. The
// layer's handler (on a network thread, or inside progress() on a worker
// when the layer has no threads of its own) queues the batch for its worker,
// which hands it to the consumer and gives the buffer back to the pool.
//
// Flow control: a sender has `buffers` credits per stream. A receiver
// returns credits as a latency-sensitive 8-byte message carrying the running
// count of the stream's batches it has consumed, once half the stream's
// buffers are free again or when nothing else arrived; latency-sensitive
// messages overtake the best-effort batches.
//
// Memory: before the first exchange the pool holds, warm, `buffers` buffers
// per stream for sending and as many for receiving; with the rings' window
// that is the registered memory. Endpoints: the peers (the layer's MPI
// connections; the rings of all rank pairs are one window).
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/messaging/message_layer.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"
#include "hpcdb/shuffle/stream_transport.hpp"

namespace hpcdb {

class MessageLayerTransport final : public StreamTransport {
 public:
  // Collective: starts the layer, registers every worker's handlers and
  // warms the pool. UsageError when the pool limit cannot hold the buffers.
  MessageLayerTransport(const Cluster& cluster, const ShuffleConfig& config);
  ~MessageLayerTransport() override;
  MessageLayerTransport(const MessageLayerTransport&) = delete;
  MessageLayerTransport& operator=(const MessageLayerTransport&) = delete;

  BatchBuffer acquire(unsigned worker, int dest, BatchSink& sink) override;
  void send(unsigned worker, int dest, const BatchBuffer& buffer) override;
  bool poll(unsigned worker, BatchSink& sink) override;
  void finish(unsigned worker, BatchSink& sink) override;
  TransportResources resources() const override;

 private:
  struct Peer {
    // This worker's stream to the peer.
    std::uint64_t acquired = 0;                // buffers handed out, over all exchanges
    std::atomic<std::uint64_t> credited{0};    // of those, batches the peer has consumed (its handler writes it)
    std::vector<OutgoingBuffer> open;          // [acquired % buffers]: acquired, not yet sent
    // The peer's stream to this worker.
    std::uint64_t freed = 0;     // batches consumed
    std::uint64_t returned = 0;  // credits sent back
  };
  struct Worker {
    std::vector<Peer> peers;
    std::mutex inbox_mutex;
    std::vector<Message> inbox;  // batches the handler queued
    std::vector<Message> taken;  // the worker's batch of them
  };

  void register_handlers(unsigned worker);
  void warm_pool();
  // Runs the layer on this worker when it has no network threads (one worker at a time).
  void drive();
  OutgoingBuffer acquire_buffer(std::size_t payload);
  void return_credits(unsigned worker, bool idle);
  bool quiet(unsigned worker);

  const Cluster& cluster_;
  ShuffleConfig config_;
  int ranks_;
  MessageLayer layer_;
  std::mutex driving_;  // the worker running the layer when it has no threads
  std::vector<std::unique_ptr<Worker>> workers_;
  std::uint64_t warmed_bytes_ = 0;
};

}  // namespace hpcdb
