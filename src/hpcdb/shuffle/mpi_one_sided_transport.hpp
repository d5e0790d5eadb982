#pragma once
// mpi-one-sided: every rank holds one receive ring per (source rank, stream)
// in a window: `buffers` slots of `buffer_size` bytes, a notification
// counter (head: slots the source has published) and a credit counter
// (tail: slots the receiver has handed to its consumer). Both counters only
// grow, over all exchanges.
//
// A sender fills slot head % buffers and publishes it by raising the head;
// it may fill a slot only while head - tail < buffers. The receiver polls
// its heads, hands the slots up to each head to its consumer in ring order,
// and raises the tail after each.
//
// - Ranks on one node (direct writes): the rings live in node-shared
//   memory, and the sender's partitioner writes rows straight into the
//   destination's slot; the head is a release store, the tail an acquire
//   load. No copy, no MPI call.
// - Other ranks: the sender partitions into a local staging slot, writes it
//   to the remote slot with MPI_Rput, and publishes lazily: after half the
//   ring, a stream's last slot, or before it waits: MPI_Win_flush, then the
//   new head with MPI_Put (landing with the next flush). It reads the remote
//   tail with MPI_Rget once half its credits are used, without waiting.
//
// Endpoints: the peers of the window.
#include <mpi.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/rma_window.hpp"
#include "hpcdb/shuffle/stream_transport.hpp"

namespace hpcdb {

class MpiOneSidedTransport final : public StreamTransport {
 public:
  // Collective: allocates and zeroes the rings (and opens the window when
  // any rank needs MPI RMA).
  MpiOneSidedTransport(const Cluster& cluster, const ShuffleConfig& config);
  ~MpiOneSidedTransport() override;
  MpiOneSidedTransport(const MpiOneSidedTransport&) = delete;
  MpiOneSidedTransport& operator=(const MpiOneSidedTransport&) = delete;

  BatchBuffer acquire(unsigned worker, int dest, BatchSink& sink) override;
  void send(unsigned worker, int dest, const BatchBuffer& buffer) override;
  bool poll(unsigned worker, BatchSink& sink) override;
  void finish(unsigned worker, BatchSink& sink) override;
  TransportResources resources() const override;

 private:
  struct Outgoing {  // a worker's stream to one destination
    std::uint64_t acquired = 0;    // slots handed out
    std::uint64_t ready = 0;       // slots sent, counted up to the first one not yet sent
    std::uint64_t announced = 0;   // head value the destination can see
    std::uint64_t known_tail = 0;  // the destination's tail when last read
    std::vector<bool> sent;        // per slot: sent but not yet counted in `ready`
    std::vector<MPI_Request> puts;  // RMA: per staging slot
    std::uint64_t head_out = 0;    // RMA: origin of the head put
    std::uint64_t tail_in = 0;     // RMA: landing word of the tail get
    MPI_Request tail_get = MPI_REQUEST_NULL;  // RMA: the tail get in flight
    bool head_in_flight = false;   // RMA: a head put not yet flushed
    int staging = -1;              // RMA: index of the destination's staging slots
  };
  struct Worker {
    std::vector<Outgoing> out;            // per destination
    std::vector<std::uint64_t> consumed;  // per source: slots handed to the consumer
    AlignedArray<std::byte> staging;      // RMA: [remote destination][slot]
    unsigned polls = 0;
  };

  std::size_t ring_bytes() const;
  std::uint64_t ring_offset(int source, unsigned stream) const;
  bool direct(int rank) const;
  std::byte* ring_of(int receiver, int source, unsigned stream) const;  // direct receivers only
  std::atomic_ref<std::uint64_t> head(std::byte* ring) const;
  std::atomic_ref<std::uint64_t> tail(std::byte* ring) const;
  void refresh_tail(unsigned worker, int dest);
  void announce(unsigned worker, int dest);
  void settle_heads(unsigned worker);
  bool consume_ring(unsigned worker, int source, BatchSink& sink);

  const Cluster& cluster_;
  ShuffleConfig config_;
  int ranks_;
  bool any_rma_ = false;          // this job uses MPI RMA between some ranks
  std::vector<bool> rma_peer_;    // per rank: reached through MPI RMA
  std::size_t rma_peers_ = 0;
  NodeSharedArena arena_;
  std::byte* mine_ = nullptr;
  std::optional<RmaWindow> window_;
  std::mutex mpi_;
  std::vector<Worker> workers_;
};

}  // namespace hpcdb
