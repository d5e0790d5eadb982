#pragma once
// ucx-tag: the credited message design over UCX tagged messages. One UCX
// worker per rank, with one endpoint per peer, shared by the rank's worker
// threads (one at a time); receives posted in advance match on a tag that
// names the kind (batch or credit), the stream and the source rank. The
// design's buffers are registered with UCX once (ucp_mem_map).
//
// Endpoints: one per peer.
#include <memory>
#include <mutex>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/ucx.hpp"
#include "hpcdb/shuffle/message_wire.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"

namespace hpcdb {

class UcxTagWire final : public MessageWire {
 public:
  // Collective: creates the worker and connects it to every peer's.
  UcxTagWire(const Cluster& cluster, const ShuffleConfig& config);
  ~UcxTagWire() override;

  void register_memory(void* data, std::size_t bytes) override;
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
    std::vector<void*> receives;      // [peer][slot] batches, then [peer] credits
    std::vector<void*> sends;         // [peer][slot]
    std::vector<void*> credit_sends;  // [peer]
  };
  void post(void*& request, void* buffer, std::size_t bytes, ucp_tag_t tag);
  void start_send(void*& request, int peer, const void* data, std::size_t bytes, ucp_tag_t tag);
  bool done(void*& request);

  const Cluster& cluster_;
  int ranks_;
  std::size_t slots_;
  UcxContext context_;
  UcxWorker worker_;
  std::vector<std::unique_ptr<UcxEndpoint>> endpoints_;  // [peer]
  UcxRegistrations registrations_;
  std::mutex mutex_;
  std::vector<Worker> workers_;
};

}  // namespace hpcdb
