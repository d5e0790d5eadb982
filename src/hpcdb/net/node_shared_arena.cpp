#include "hpcdb/net/node_shared_arena.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <utility>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {
constexpr std::size_t kPage = 4096;

std::byte* page_align(void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<std::byte*>((address + kPage - 1) & ~static_cast<std::uintptr_t>(kPage - 1));
}
}  // namespace

NodeSharedArena::NodeSharedArena(const Cluster& cluster, std::size_t bytes, std::size_t prefault_bytes) {
  const std::size_t rounded = (bytes + kPage - 1) / kPage * kPage;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(rounded + kPage), 1, info, cluster.node(), &base, &win_);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) {
    throw Error("cannot allocate " + format_bytes(static_cast<double>(rounded)) + " of node-shared memory");
  }
  const int members = cluster.node_size();
  segments_.resize(static_cast<std::size_t>(members));
  capacities_.resize(static_cast<std::size_t>(members));
  for (int i = 0; i < members; ++i) {
    MPI_Aint size = 0;
    int disp_unit = 0;
    void* peer = nullptr;
    MPI_Win_shared_query(win_, i, &size, &disp_unit, &peer);
    std::byte* aligned = page_align(peer);
    const auto skipped = static_cast<std::size_t>(aligned - static_cast<std::byte*>(peer));
    segments_[static_cast<std::size_t>(i)] = aligned;
    capacities_[static_cast<std::size_t>(i)] = static_cast<std::size_t>(size) > skipped ? static_cast<std::size_t>(size) - skipped : 0;
  }
  // Huge pages where the system allows them for shared memory: a large
  // radix fan-out writes to as many pages at once as there are partitions.
  // The advice belongs to each process's own mapping, so every rank gives it
  // for every segment, and maps its peers' pages before the join, after
  // their owners have allocated them (otherwise a third of a peer's segment
  // stayed on 4 KiB mappings here; the join measured no faster either way).
  for (int i = 0; i < members; ++i) madvise(segment(i), capacity(i) / kPage * kPage, MADV_HUGEPAGE);
  prefault(segment(cluster.node_rank()), std::min(prefault_bytes, capacity(cluster.node_rank())));
  MPI_Barrier(cluster.node());
  for (int i = 0; i < members; ++i) {
    if (i != cluster.node_rank()) touch_for_reading(segment(i), std::min(prefault_bytes, capacity(i)));
  }
}

NodeSharedArena::~NodeSharedArena() {
  // Freeing is collective over the node: while an exception unwinds, the
  // node's other ranks may never come, so the window is left to the ending job.
  if (std::uncaught_exceptions() > 0) return;
  release();
}

NodeSharedArena::NodeSharedArena(NodeSharedArena&& other) noexcept { *this = std::move(other); }

NodeSharedArena& NodeSharedArena::operator=(NodeSharedArena&& other) noexcept {
  if (this != &other) {
    release();
    win_ = std::exchange(other.win_, MPI_WIN_NULL);
    segments_ = std::move(other.segments_);
    capacities_ = std::move(other.capacities_);
  }
  return *this;
}

void NodeSharedArena::release() {
  if (win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
  segments_.clear();
  capacities_.clear();
}

}  // namespace hpcdb
