#pragma once
// Memory that every rank of a node can address directly: each rank owns one
// segment of an MPI shared-memory window (MPI_Win_allocate_shared on the node
// communicator), allocated and pre-faulted once at engine set-up and reused
// by every join. Co-located ranks write into each other's segments with plain
// (non-temporal) stores, which is what "no copy we can avoid" means on a node.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

class NodeSharedArena {
 public:
  NodeSharedArena() = default;
  // Collective over the node. Every rank asks for its own capacity, of which
  // the first `prefault_bytes` are backed by memory now (every rank maps them
  // too); the rest only when written.
  NodeSharedArena(const Cluster& cluster, std::size_t bytes, std::size_t prefault_bytes = SIZE_MAX);
  ~NodeSharedArena();
  NodeSharedArena(NodeSharedArena&& other) noexcept;
  NodeSharedArena& operator=(NodeSharedArena&& other) noexcept;
  NodeSharedArena(const NodeSharedArena&) = delete;
  NodeSharedArena& operator=(const NodeSharedArena&) = delete;

  // Page-aligned start of the segment of node rank i (this process's mapping).
  std::byte* segment(int node_rank) const { return segments_[static_cast<std::size_t>(node_rank)]; }
  std::size_t capacity(int node_rank) const { return capacities_[static_cast<std::size_t>(node_rank)]; }

 private:
  void release();
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<std::byte*> segments_;
  std::vector<std::size_t> capacities_;
};

}  // namespace hpcdb
