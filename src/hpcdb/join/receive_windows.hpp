#pragma once
// Where a distributed join's exchange lands. Every rank's receive window is
// an exact-size range at the start of its segment of a node-shared arena
// that set-up allocated and pre-faulted once; co-located ranks write into it
// directly. When some writes must go through MPI (ranks on other nodes, or
// forced puts), an MPI window over the exact range is open for the exchange.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/one_sided_writer.hpp"
#include "hpcdb/net/rma_window.hpp"

namespace hpcdb {

class ReceiveWindows {
 public:
  // Collective. `capacity` bytes for this rank.
  ReceiveWindows(const Cluster& cluster, std::size_t capacity, bool needs_puts);

  // Bytes to reserve for two relations: this rank's mean share, with slack for skew.
  static std::size_t capacity_for(std::uint64_t inner, std::uint64_t outer, int ranks, unsigned tuple_bytes);

  // Collective. Opens this rank's window of `bytes`; when any rank needs more
  // than its arena holds, every arena is reallocated (returns true then).
  bool open(std::size_t bytes);
  // Collective. Completes this rank's puts and waits until every window is complete.
  void close();

  std::byte* segment(int node_rank) const { return arena_.segment(node_rank); }
  std::byte* own() const { return arena_.segment(cluster_.node_rank()); }
  std::size_t capacity() const { return arena_.capacity(cluster_.node_rank()); }
  bool needs_puts() const { return needs_puts_; }
  OneSidedWriter* writer() const { return writer_.get(); }

 private:
  const Cluster& cluster_;
  bool needs_puts_;
  NodeSharedArena arena_;
  std::unique_ptr<RmaWindow> window_;
  std::unique_ptr<OneSidedWriter> writer_;
};

}  // namespace hpcdb
