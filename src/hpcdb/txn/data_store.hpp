#pragma once
// The data the locks guard: every partition's bytes live at the lock agent
// that owns the partition, and every lock agent also holds a replica region
// (read-only tables, such as TPC-C's item, copied to each agent). The memory
// is allocated once, in node-shared memory (MPI_Win_allocate_shared) that
// peers on the same node address directly, with an MPI window over it for
// peers on other nodes. Transaction agents read and write it one-sidedly
// (copies on a node, MPI_Get/MPI_Put across nodes) while they hold the
// covering locks; the owning lock agent touches it only to load it at
// start-up and to check it after the run.
//
// A workload decides what the bytes mean (its layout); the store only knows
// regions and offsets.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/rma_window.hpp"
#include "hpcdb/txn/data_access.hpp"
#include "hpcdb/txn/lock_space.hpp"

namespace hpcdb {

struct DataShape {
  std::uint64_t partition_bytes = 0;
  std::uint64_t replica_bytes = 0;
};

class DataStore final : public DataAccess {
 public:
  // Collective. Without `enabled` nothing is allocated (locks only). With
  // `rma_only`, data on this node is reached through MPI too.
  DataStore(const Cluster& cluster, const LockSpace& space, DataShape shape, bool enabled, bool rma_only);
  DataStore(const DataStore&) = delete;
  DataStore& operator=(const DataStore&) = delete;

  bool enabled() const override { return enabled_; }
  const DataShape& shape() const { return shape_; }
  std::uint32_t replica_region(int agent) const { return space_.partitions() + static_cast<std::uint32_t>(agent); }

  // One-sided access (transaction agents).
  void get(DataRef at, void* into, std::size_t bytes) override;
  void put(DataRef at, const void* from, std::size_t bytes) override;
  std::uint64_t load_word(DataRef at) override;
  void complete() override;

  // The owning lock agent's own memory.
  std::byte* local_partition(std::uint32_t partition);
  std::byte* local_replica();
  void publish_local_writes() const { sync(); }  // before others may read them
  void refresh_local_view() const { sync(); }    // before reading what others wrote

 private:
  int owner_of(std::uint32_t region) const;
  // Throws Error when [offset, offset + bytes) lies beyond the region (a bug in a program).
  MPI_Aint window_offset(DataRef at, std::size_t bytes) const;
  std::byte* shared_address(DataRef at, std::size_t bytes) const;  // nullptr unless the owner shares this node's memory
  void sync() const {
    if (by_mpi_) MPI_Win_sync(win_);
  }

  const Cluster& cluster_;
  const LockSpace& space_;
  DataShape shape_;
  bool enabled_;
  bool rma_only_;
  bool by_mpi_;  // some peer reaches the data through MPI (RMA only, or several nodes)
  bool puts_pending_ = false;
  NodeSharedArena arena_;
  std::optional<RmaWindow> window_;
  MPI_Win win_ = MPI_WIN_NULL;
  int my_agent_ = -1;
};

}  // namespace hpcdb
