#pragma once
// ucx-am: the credited message design over UCX active messages, with a UCX
// worker of its own for every worker thread and one endpoint per (thread,
// peer): thread t of each rank talks only to thread t of the others, so
// threads never share an endpoint or a lock. A batch is an active message
// whose header names the source rank; the handler keeps a small (eager)
// batch where UCX received it until the consumer is done with it, and
// fetches a large (rendezvous) one into one of the receive buffers the
// design has made available for that source. Credits return as active
// messages of their own.
//
// Endpoints: threads x peers.
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/ucx.hpp"
#include "hpcdb/shuffle/message_wire.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"

namespace hpcdb {

class UcxAmWire final : public MessageWire {
 public:
  // Collective: creates the workers and connects each to its peers'.
  UcxAmWire(const Cluster& cluster, const ShuffleConfig& config);
  ~UcxAmWire() override;

  void register_memory(void* data, std::size_t bytes) override;
  void post_receive(unsigned worker, int peer, std::size_t slot, std::byte* buffer, std::size_t bytes) override;
  void post_credit_receive(unsigned worker, int peer, std::uint64_t* landing) override;
  void send(unsigned worker, int peer, std::size_t slot, const std::byte* data, std::size_t bytes) override;
  bool sent(unsigned worker, int peer, std::size_t slot) override;
  void send_credit(unsigned worker, int peer, const std::uint64_t* value) override;
  bool credit_sent(unsigned worker, int peer) override;
  void arrivals(unsigned worker, std::vector<Arrival>& out) override;
  void release(unsigned worker, const Arrival& arrival) override;
  std::uint64_t endpoints() const override;

 private:
  struct Fetch {
    void* request = nullptr;
    Arrival arrival;
  };
  struct FreeBuffer {
    std::size_t slot = 0;
    std::byte* buffer = nullptr;
  };
  struct Worker {
    UcxAmWire* wire = nullptr;
    std::unique_ptr<UcxWorker> ucx;
    std::vector<std::unique_ptr<UcxEndpoint>> endpoints;  // [peer]
    std::vector<std::vector<FreeBuffer>> free;            // [peer]: receive buffers for its batches
    std::vector<std::uint64_t*> credit_landing;           // [peer]
    std::vector<Arrival> ready;
    std::vector<Fetch> fetching;  // rendezvous batches on their way into a receive buffer
    std::vector<void*> sends;         // [peer][slot]
    std::vector<void*> credit_sends;  // [peer]
    std::string error;                // from a handler, thrown after progress
  };

  static ucs_status_t on_batch(void* arg, const void* header, std::size_t header_length, void* data,
                               std::size_t length, const ucp_am_recv_param_t* param);
  static ucs_status_t on_credit(void* arg, const void* header, std::size_t header_length, void* data,
                                std::size_t length, const ucp_am_recv_param_t* param);
  int source_of(Worker& w, const void* header, std::size_t header_length) const;
  void start_send(Worker& w, void*& request, unsigned id, int peer, const void* data, std::size_t bytes);
  bool done(Worker& w, void*& request);

  const Cluster& cluster_;
  int ranks_;
  std::size_t slots_;
  std::size_t buffer_bytes_;
  std::uint32_t me_;  // the header of every message this rank sends
  UcxContext context_;
  std::vector<std::unique_ptr<Worker>> workers_;
  UcxRegistrations registrations_;
};

}  // namespace hpcdb
