#pragma once
// The wire under a credited message design (credited_message_transport.hpp):
// receives posted in advance into the design's buffers, sends, and small
// credit messages, per worker thread and peer. MPI two-sided and UCX tagged
// messages each implement it; everything else about the design is shared.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hpcdb {

class MessageWire {
 public:
  struct Arrival {
    bool credit = false;   // a credit message (else a batch)
    int peer = 0;
    std::size_t slot = 0;  // batches: which of the peer's posted receives holds it
    std::size_t bytes = 0;
    // Set when the batch sits in the wire's own memory instead (then `slot`
    // is not used, and release() gives the memory back after delivery).
    const std::byte* data = nullptr;
  };

  virtual ~MessageWire() = default;

  // Memory the design sends from or receives into, for the whole lifetime of the wire.
  virtual void register_memory(void* data, std::size_t bytes) {
    (void)data;
    (void)bytes;
  }

  // A receive of up to `bytes` bytes of a batch from `peer` to `worker` into `buffer`.
  virtual void post_receive(unsigned worker, int peer, std::size_t slot, std::byte* buffer, std::size_t bytes) = 0;
  // A receive of one credit message from `peer` into `landing`.
  virtual void post_credit_receive(unsigned worker, int peer, std::uint64_t* landing) = 0;
  // Starts sending a batch; `slot` names the sender's buffer, reusable once sent() says so.
  virtual void send(unsigned worker, int peer, std::size_t slot, const std::byte* data, std::size_t bytes) = 0;
  virtual bool sent(unsigned worker, int peer, std::size_t slot) = 0;
  // Starts sending a credit message; `value` stays valid until credit_sent().
  virtual void send_credit(unsigned worker, int peer, const std::uint64_t* value) = 0;
  virtual bool credit_sent(unsigned worker, int peer) = 0;
  // Makes progress and appends the receives that completed (each one is
  // then no longer posted).
  virtual void arrivals(unsigned worker, std::vector<Arrival>& out) = 0;
  // Gives back the wire's memory of a delivered arrival that had `data` set.
  virtual void release(unsigned worker, const Arrival& arrival) {
    (void)worker;
    (void)arrival;
  }

  virtual std::uint64_t endpoints() const = 0;
};

}  // namespace hpcdb
