#pragma once
// mpi-two-sided: batches travel as MPI_Isend into receives that the
// destination posted in advance, `buffers` per (source, stream), into its
// own receive buffers. Credits: a receiver tells a sender, in a small message
// with the running count of batches it has handed to its consumer, that
// buffers are free again (after half of them, or when it has nothing else
// to do); a sender never has more unacknowledged batches in a stream than
// the receiver has posted receives for it. Worker threads share the rank's
// MPI connections (MPI_THREAD_SERIALIZED: one thread in MPI at a time).
//
// Endpoints: the peers (MPI's connections, one per peer).
#include <mpi.h>

#include <mutex>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/stream_transport.hpp"

namespace hpcdb {

class MpiTwoSidedTransport final : public StreamTransport {
 public:
  // Collective: duplicates the world communicator and posts every receive.
  MpiTwoSidedTransport(const Cluster& cluster, const ShuffleConfig& config);
  ~MpiTwoSidedTransport() override;
  MpiTwoSidedTransport(const MpiTwoSidedTransport&) = delete;
  MpiTwoSidedTransport& operator=(const MpiTwoSidedTransport&) = delete;

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
    MPI_Request credit_send = MPI_REQUEST_NULL;
  };
  struct Worker {
    AlignedArray<std::byte> send_buffers;     // [peer][buffer]
    AlignedArray<std::byte> receive_buffers;  // [peer][buffer]
    std::vector<MPI_Request> sends;           // [peer][buffer]
    std::vector<MPI_Request> receives;        // [peer][buffer] data, then [peer] credits
    std::vector<int> completed;
    std::vector<MPI_Status> statuses;
    std::vector<Peer> peers;
  };

  std::byte* send_buffer(Worker& w, int peer, std::uint64_t slot) const;
  std::byte* receive_buffer(Worker& w, int peer, std::uint64_t slot) const;
  void post_data_receive(unsigned worker, int peer, std::uint64_t slot);
  void post_credit_receive(unsigned worker, int peer);
  void return_credits(unsigned worker, bool idle);
  bool quiet(unsigned worker);

  const Cluster& cluster_;
  ShuffleConfig config_;
  int ranks_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::mutex mpi_;
  std::vector<Worker> workers_;
};

}  // namespace hpcdb
