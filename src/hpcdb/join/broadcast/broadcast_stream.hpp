#pragma once
// The broadcast join's stream over MPI: every rank's S fragment, cut into
// chunks, goes once from its owner to every other rank, one owner after the
// other, and every rank sees the chunks in the same global order. A few
// chunks travel ahead while the caller joins the one it holds.
//
// Two routes. Ring (the default): a chunk travels along the ring from its
// owner; each rank receives it from its predecessor and, unless it is the
// owner's predecessor (the chain's end), forwards it to its successor as
// soon as it has arrived. So every link carries every chunk at most once and
// the owner sends each chunk once, as a broadcast on a shared segment would.
// Tree: MPI_Ibcast, so MPI picks the tree. Open MPI's non-blocking broadcast
// sends a root's chunk to every rank of a communicator of up to 4 ranks
// itself, so the owner's link carries it n - 1 times: kept to compare.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/duplicated_comm.hpp"

namespace hpcdb {

class BroadcastStream {
 public:
  // Fills `values` bytes of a chunk of the calling rank's fragment: the
  // bytes of values [first, first + count) in the travelling format.
  using Encoder = std::function<void(std::size_t first, std::size_t count, std::byte* out)>;
  enum class Route { ring, tree };

  // Collective. Every rank's fragment (`fragments`, values of `value_bytes`
  // bytes each, the same list on every rank); chunks of up to
  // `chunk_values`; `depth` chunks in flight ahead of the one being joined.
  BroadcastStream(const Cluster& cluster, const std::vector<std::uint64_t>& fragments, std::size_t value_bytes,
                  std::size_t chunk_values, unsigned depth, Route route = Route::ring);
  ~BroadcastStream();
  BroadcastStream(const BroadcastStream&) = delete;
  BroadcastStream& operator=(const BroadcastStream&) = delete;

  // Starts a pass over every chunk of every rank.
  void start(Encoder encode);
  // The next chunk (its bytes, arrived and complete), or an empty span at
  // the end. The span stays valid until the next call; it may still be on
  // its way to the successor, so the caller must not change it.
  std::span<const std::byte> next();
  // Non-blocking: forwards the chunks that have arrived and lets MPI move
  // the others.
  void progress();

  std::uint64_t chunks() const { return chunk_owner_.size(); }
  // By this rank, this pass; with the tree route, the bytes of its own
  // chunks times the ranks they reach, whatever tree MPI chose.
  std::uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  struct Slot {
    MemoryRegion memory;
    std::size_t chunk = 0;
    MPI_Request receive = MPI_REQUEST_NULL;  // from the predecessor (ring), or the MPI_Ibcast (tree)
    MPI_Request forward = MPI_REQUEST_NULL;  // to the successor
    bool arrived = false;
    bool must_forward = false;  // arrived (or encoded here) and not yet sent on
  };

  std::byte* bytes_of(Slot& slot) { return static_cast<std::byte*>(slot.memory.data()); }
  std::size_t chunk_bytes(std::size_t chunk) const { return chunk_count_[chunk] * value_bytes_; }
  bool forwards(std::size_t chunk) const;  // whether this rank sends the chunk on
  void post(std::size_t chunk);
  // Sends on, in chunk order, every chunk that has arrived and must go on.
  void forward_arrived();
  // Tests the slots' requests once; true when something completed.
  bool poll();

  DuplicatedComm comm_;  // private: its messages never meet other traffic
  int rank_ = 0;
  int ranks_ = 1;
  Route route_ = Route::ring;
  std::size_t value_bytes_ = 0;
  std::vector<int> chunk_owner_;            // global chunk order
  std::vector<std::uint64_t> chunk_first_;  // first value within its owner's fragment
  std::vector<std::uint64_t> chunk_count_;
  std::vector<Slot> slots_;
  Encoder encode_;
  std::size_t next_to_post_ = 0;
  std::size_t next_to_return_ = 0;
  std::size_t next_to_forward_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace hpcdb
