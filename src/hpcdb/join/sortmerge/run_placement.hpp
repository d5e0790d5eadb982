#pragma once
// The sort-merge join's window allocation phase: how many tuples each rank
// receives (MPI_Reduce_scatter_block), where this rank's runs of each range
// go in their target's window (MPI_Scan over the senders, after the earlier
// sub-ranges of all senders), and how many tuples every sender's threads
// send here per sub-range (MPI_Alltoall: what the merge finds where). A
// target's region of one relation holds its sub-ranges in key order, each
// with the senders' data in rank order, each sender's in thread order.
#include <array>
#include <cstdint>
#include <vector>

#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/join/sortmerge/run_formation.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct RunPlacement {
  std::size_t ranks = 1;
  std::size_t subranges = 1;
  unsigned threads = 1;
  // counts[(c * 2 + relation) * threads + t]: this rank's tuples of (relation, thread t) in range c
  std::vector<std::uint64_t> counts;
  std::vector<std::uint64_t> per_destination;  // [q * 2 + relation]: this rank's tuples to rank q
  std::vector<std::uint64_t> slot_base;        // [c * 2 + relation]: this rank's first slot in range c's region
  // incoming[((sender * subranges + sub) * 2 + relation) * threads + t]
  std::vector<std::uint64_t> incoming;
  std::array<std::uint64_t, 2> window_tuples{};  // this rank receives, inner and outer
  std::vector<std::uint64_t> outer_offsets;      // per rank: byte offset of its outer region
  std::uint64_t window_bytes = 0;                // this rank's window, both regions

  // Slot in its target's region of run `index` of thread `thread`'s chain
  // of (range, relation).
  std::uint64_t slot_of(unsigned thread, int relation, std::size_t range, std::size_t index, std::size_t run_length) const {
    const std::size_t cr = range * 2 + static_cast<std::size_t>(relation);
    std::uint64_t slot = slot_base[cr] + index * run_length;
    for (unsigned u = 0; u < thread; ++u) slot += counts[cr * threads + u];  // after my lower threads' runs
    return slot;
  }
};

// Collective. Opens the windows at their exact sizes.
RunPlacement place_runs(const Cluster& cluster, const SortMergePlan& plan, const FormedRuns& formed,
                        ReceiveWindows& windows);

}  // namespace hpcdb
