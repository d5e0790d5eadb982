#pragma once
// An all-to-all exchange of pieces whose places at the receivers are known
// in advance (as a radix join's partitions are from its histograms), sent
// in the order a schedule gives (all_to_all_schedule.hpp) by one-sided puts
// into the receivers' memory or by two-sided messages, in chunks.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hpcdb/net/all_to_all_schedule.hpp"
#include "hpcdb/net/exchange_transport.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/rma_window.hpp"

namespace hpcdb {

// `bytes` bytes at `data`, to land at byte `displacement` of the target's
// receive memory.
struct OutgoingPiece {
  const std::byte* data = nullptr;
  std::size_t bytes = 0;
  std::uint64_t displacement = 0;
};

struct AllToAllPlan {
  // Per target rank, in sending order; pieces to this rank itself are copied.
  std::vector<std::vector<OutgoingPiece>> outgoing;
  // Per source rank, the displacements and sizes of its pieces here, in its
  // sending order (needed by the messages transport only).
  std::vector<std::vector<OutgoingPiece>> incoming;
};

struct ExchangeStats {
  std::uint64_t bytes = 0;      // sent to other ranks
  std::uint64_t transfers = 0;  // puts or messages
  unsigned rounds = 0;          // synchronized rounds
  double waiting_seconds = 0;   // in the barriers between rounds
  double sending_seconds = 0;   // from the start until this rank's last chunk was sent
};

class AllToAllExchange {
 public:
  // Pieces land in `receive`; chunks of at most `chunk_bytes`. `comm`: a
  // communicator of the cluster's ranks that only exchanges use, one at a
  // time (a DuplicatedComm the caller made at set-up): with messages,
  // constructing the exchange then does not bring the ranks together, so
  // that an unsynchronized schedule keeps their drift. Collective with puts
  // (the window).
  AllToAllExchange(const Cluster& cluster, MPI_Comm comm, std::span<std::byte> receive, ExchangeTransport transport,
                   ExchangeSchedule schedule, std::size_t chunk_bytes, std::uint64_t seed = 1);
  ~AllToAllExchange();
  AllToAllExchange(const AllToAllExchange&) = delete;
  AllToAllExchange& operator=(const AllToAllExchange&) = delete;

  // Collective: every piece is in place at its target on return.
  ExchangeStats run(const AllToAllPlan& plan);

 private:
  struct Chunk {
    int target;
    const std::byte* data;
    std::size_t bytes;
    std::uint64_t displacement;
  };
  std::vector<Chunk> chunks_to(int target, const AllToAllPlan& plan) const;
  void send(const std::vector<Chunk>& chunks, ExchangeStats& stats);
  void post_receives(const AllToAllPlan& plan);
  void copy_to_self(const AllToAllPlan& plan);

  const Cluster& cluster_;
  std::span<std::byte> receive_;
  ExchangeTransport transport_;
  ExchangeSchedule schedule_;
  std::size_t chunk_bytes_;
  std::uint64_t seed_;
  MPI_Comm comm_;
  std::unique_ptr<RmaWindow> window_;
  std::vector<MPI_Request> receives_;
  std::vector<MPI_Request> sends_;
};

}  // namespace hpcdb
