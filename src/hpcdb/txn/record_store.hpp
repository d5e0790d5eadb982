#pragma once
// The records the locks guard: record i of the lock-id space lives at the
// lock agent that owns lock i, in memory allocated at start-up that peers on
// the same node map directly (MPI_Win_allocate_shared) and other nodes reach
// through an MPI window. Transaction agents read and write records
// one-sidedly (copies on a node, MPI_Get/MPI_Put across nodes), only while
// they hold the covering lock; the owning lock agent touches its own records
// only to take and restore undo images.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/rma_window.hpp"
#include "hpcdb/txn/agent_roles.hpp"

namespace hpcdb {

struct Record {
  TxnId version = 0;      // the transaction that wrote it last (0: initial)
  std::uint64_t value = 0;
};

class RecordStore {
 public:
  // Collective. A lock agent holds its range's records (zeroed); other ranks
  // none. With `rma_only`, records on this node are reached through MPI too.
  RecordStore(const Cluster& cluster, const AgentRoles& roles, bool enabled, bool rma_only);
  RecordStore(const RecordStore&) = delete;
  RecordStore& operator=(const RecordStore&) = delete;

  bool enabled() const { return enabled_; }

  // Remote access (transaction agents). Reads land in `into`, and `value`
  // must stay unchanged, until complete().
  void start_read(LockId record, Record* into);
  void write(LockId record, const Record& value);
  void complete();  // finishes every started read and write

  // Local access (the owning lock agent).
  Record& local(LockId record);
  void publish_local_writes() const { sync(); }  // before others may read them
  std::vector<std::pair<LockId, TxnId>> written_versions() const;  // records with a version other than 0

 private:
  Record* shared(LockId record) const;  // nullptr unless the owner shares this node's memory
  // Orders this process's view of its records with MPI writes, when there can be any.
  void sync() const {
    if (by_mpi_) MPI_Win_sync(win_);
  }

  const Cluster& cluster_;
  const AgentRoles& roles_;
  bool enabled_;
  bool rma_only_;
  bool by_mpi_;  // some peer reaches the records through MPI (RMA only, or several nodes)
  NodeSharedArena arena_;
  std::optional<RmaWindow> window_;
  MPI_Win win_ = MPI_WIN_NULL;
  Record* base_ = nullptr;
  LockId first_ = 0;
  LockId count_ = 0;
};

}  // namespace hpcdb
