#pragma once
// The broadcast join's stream: every rank's S fragment, cut into chunks,
// goes once from its owner to every other rank (MPI_Ibcast, so MPI picks
// the tree), one owner after the other, and every rank sees the chunks in
// the same global order. A few chunks travel ahead while the caller joins
// the one it holds.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class BroadcastStream {
 public:
  // Fills `values` bytes of a chunk of the calling rank's fragment: the
  // bytes of values [first, first + count) in the travelling format.
  using Encoder = std::function<void(std::size_t first, std::size_t count, std::byte* out)>;

  // Collective. Fragments of `fragment_values` values of `value_bytes`
  // bytes each on this rank; chunks of up to `chunk_values`; `depth`
  // chunks in flight ahead of the one being joined.
  BroadcastStream(const Cluster& cluster, std::uint64_t fragment_values, std::size_t value_bytes,
                  std::size_t chunk_values, unsigned depth);
  ~BroadcastStream();
  BroadcastStream(const BroadcastStream&) = delete;
  BroadcastStream& operator=(const BroadcastStream&) = delete;

  // Starts a pass over every chunk of every rank.
  void start(Encoder encode);
  // The next chunk (its bytes, arrived and complete), or an empty span at
  // the end. The span stays valid until the next call.
  std::span<std::byte> next();
  // Non-blocking: lets MPI move the chunks in flight.
  void progress();

  std::uint64_t chunks() const { return chunk_owner_.size(); }
  std::uint64_t bytes_sent() const { return bytes_sent_; }  // by this rank, to all others, this pass

 private:
  void post(std::size_t chunk);

  MPI_Comm comm_ = MPI_COMM_NULL;  // private: Ibcasts never meet other collectives
  int rank_ = 0;
  int ranks_ = 1;
  std::size_t value_bytes_ = 0;
  std::size_t chunk_values_ = 0;
  std::vector<int> chunk_owner_;            // global chunk order
  std::vector<std::uint64_t> chunk_first_;  // first value within its owner's fragment
  std::vector<std::uint64_t> chunk_count_;
  std::vector<MemoryRegion> slots_;
  std::vector<MPI_Request> requests_;
  Encoder encode_;
  std::size_t next_to_post_ = 0;
  std::size_t next_to_return_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace hpcdb
