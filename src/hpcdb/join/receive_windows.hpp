#pragma once
// Where a distributed join's exchange lands. Every rank's receive window is
// an exact-size range at the start of its segment of a node-shared arena
// that set-up allocated and pre-faulted once; co-located ranks write into it
// directly. When some writes must go through MPI (ranks on other nodes, or
// forced puts), an MPI window over the exact range is open for the exchange.
//
// A window holds the rank's inner (R) tuples from its start, then, from the
// next cache line, its outer (S) tuples (WindowRegions).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/one_sided_writer.hpp"
#include "hpcdb/net/rma_window.hpp"

namespace hpcdb {

// The two regions of a window of `inner` and `outer` tuples of `tuple_bytes`.
struct WindowRegions {
  std::uint64_t outer_offset = 0;  // bytes; the inner region starts at 0
  std::uint64_t bytes = 0;         // the whole window
};
constexpr WindowRegions window_regions(std::uint64_t inner, std::uint64_t outer, unsigned tuple_bytes) {
  const std::uint64_t outer_offset = (inner * tuple_bytes + 63) / 64 * 64;
  return {outer_offset, outer_offset + outer * tuple_bytes};
}

// Where a write into a rank's window goes: straight into its segment of the
// node-shared arena (`direct`), or by a one-sided put to `rank` at byte
// `offset` of its window.
struct WindowPlace {
  std::byte* direct = nullptr;
  int rank = -1;
  std::uint64_t offset = 0;
};

// How the exchange writes into the windows: co-located ranks' directly and
// others' by puts; every write by a put; or not through this object at all
// (an exchange with its own transport, as the staged radix exchange).
enum class WindowWrites { stores_and_puts, puts_only, elsewhere };

class ReceiveWindows {
 public:
  // Collective. `capacity` bytes for this rank.
  ReceiveWindows(const Cluster& cluster, std::size_t capacity, WindowWrites writes);

  // Bytes to reserve for two relations: this rank's mean share, with slack for skew.
  static std::size_t capacity_for(std::uint64_t inner, std::uint64_t outer, int ranks, unsigned tuple_bytes);
  static WindowWrites writes_for(bool force_put) { return force_put ? WindowWrites::puts_only : WindowWrites::stores_and_puts; }

  // Collective. Opens this rank's window of `bytes`; when any rank needs more
  // than its arena holds, every arena is reallocated (returns true then).
  bool open(std::size_t bytes);
  // Collective. Completes this rank's puts and waits until every window is complete.
  void close();

  // Where byte `offset` of rank `target`'s window is written from this rank.
  WindowPlace place(int target, std::uint64_t offset) const {
    const int node_rank = cluster_.node_rank_of(target);
    if (node_rank >= 0 && writes_ != WindowWrites::puts_only) return {segment(node_rank) + offset, -1, 0};
    return {nullptr, target, offset};
  }

  std::byte* segment(int node_rank) const { return arena_.segment(node_rank); }
  std::byte* own() const { return arena_.segment(cluster_.node_rank()); }
  std::size_t capacity() const { return arena_.capacity(cluster_.node_rank()); }
  bool needs_puts() const { return needs_puts_; }
  OneSidedWriter* writer() const { return writer_.get(); }

 private:
  const Cluster& cluster_;
  WindowWrites writes_;
  bool needs_puts_;  // some writes go through an MPI window
  NodeSharedArena arena_;
  std::unique_ptr<RmaWindow> window_;
  std::unique_ptr<OneSidedWriter> writer_;
};

}  // namespace hpcdb
