#pragma once
// Streaming by messages into receives posted in advance (mpi-two-sided,
// ucx-tag): each receiving worker posts `buffers` receives per source rank
// into its own receive buffers, and a sender has `buffers` credits per
// destination. A receiver returns credits in a small message carrying the
// running count of batches it has handed to its consumer, once half a
// stream's buffers are free again or when nothing else arrived; a sender
// never has more unacknowledged batches in a stream than the receiver has
// receives posted for it. The wire (message_wire.hpp) is the design's.
#include <memory>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/message_wire.hpp"
#include "hpcdb/shuffle/stream_transport.hpp"

namespace hpcdb {

class CreditedMessageTransport final : public StreamTransport {
 public:
  // Collective: posts every receive, then waits for every rank to have done so.
  CreditedMessageTransport(const Cluster& cluster, const ShuffleConfig& config, std::unique_ptr<MessageWire> wire);
  ~CreditedMessageTransport() override;
  CreditedMessageTransport(const CreditedMessageTransport&) = delete;
  CreditedMessageTransport& operator=(const CreditedMessageTransport&) = delete;

  BatchBuffer acquire(unsigned worker, int dest, BatchSink& sink) override;
  void send(unsigned worker, int dest, const BatchBuffer& buffer) override;
  bool poll(unsigned worker, BatchSink& sink) override;
  void finish(unsigned worker, BatchSink& sink) override;
  TransportResources resources() const override;

 private:
  struct Peer {
    // This worker's stream to the peer.
    std::uint64_t acquired = 0;   // buffers handed out, over all exchanges
    std::uint64_t credited = 0;   // of those, batches the peer has consumed
    std::uint64_t credit_in = 0;  // landing word of the posted credit receive
    // The peer's stream to this worker.
    std::uint64_t freed = 0;       // batches consumed
    std::uint64_t returned = 0;    // credits sent back
    std::uint64_t credit_out = 0;  // payload of the credit message in flight
    bool credit_in_flight = false;
  };
  struct Worker {
    AlignedArray<std::byte> send_buffers;     // [peer][buffer]
    AlignedArray<std::byte> receive_buffers;  // [peer][buffer]
    std::vector<Peer> peers;
    std::vector<MessageWire::Arrival> arrivals;
  };

  std::byte* send_buffer(Worker& w, int peer, std::uint64_t slot) const;
  std::byte* receive_buffer(Worker& w, int peer, std::uint64_t slot) const;
  void return_credits(unsigned worker, bool idle);
  bool quiet(unsigned worker);

  const Cluster& cluster_;
  ShuffleConfig config_;
  int ranks_;
  std::unique_ptr<MessageWire> wire_;
  std::vector<Worker> workers_;
};

}  // namespace hpcdb
