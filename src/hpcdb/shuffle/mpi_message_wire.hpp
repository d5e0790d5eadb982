#pragma once
// mpi-two-sided: the credited message design over MPI point-to-point:
// MPI_Isend into MPI_Irecv posted in advance, on a duplicate of the world
// communicator (tag 2t for batches of worker t, 2t + 1 for its credits).
// Worker threads share the rank's MPI connections; one thread at a time is
// in MPI (MPI_THREAD_SERIALIZED).
//
// Endpoints: the peers (MPI keeps one connection per peer).
#include <mpi.h>

#include <mutex>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/message_wire.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"

namespace hpcdb {

class MpiMessageWire final : public MessageWire {
 public:
  // Collective (duplicates the communicator).
  MpiMessageWire(const Cluster& cluster, const ShuffleConfig& config);
  ~MpiMessageWire() override;
  MpiMessageWire(const MpiMessageWire&) = delete;
  MpiMessageWire& operator=(const MpiMessageWire&) = delete;

  void post_receive(unsigned worker, int peer, std::size_t slot, std::byte* buffer, std::size_t bytes) override;
  void post_credit_receive(unsigned worker, int peer, std::uint64_t* landing) override;
  void send(unsigned worker, int peer, std::size_t slot, const std::byte* data, std::size_t bytes) override;
  bool sent(unsigned worker, int peer, std::size_t slot) override;
  void send_credit(unsigned worker, int peer, const std::uint64_t* value) override;
  bool credit_sent(unsigned worker, int peer) override;
  void arrivals(unsigned worker, std::vector<Arrival>& out) override;
  std::uint64_t endpoints() const override { return static_cast<std::uint64_t>(ranks_ - 1); }

 private:
  struct Worker {
    std::vector<MPI_Request> receives;  // [peer][slot] batches, then [peer] credits
    std::vector<MPI_Request> sends;     // [peer][slot]
    std::vector<MPI_Request> credit_sends;  // [peer]
    std::vector<int> completed;
    std::vector<MPI_Status> statuses;
  };
  bool test(MPI_Request& request);

  int ranks_;
  std::size_t slots_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::mutex mpi_;
  std::vector<Worker> workers_;
};

}  // namespace hpcdb
