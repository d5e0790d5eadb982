#include "hpcdb/txn/record_store.hpp"

#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

RecordStore::RecordStore(const Cluster& cluster, const AgentRoles& roles, bool enabled, bool rma_only)
    : cluster_(cluster),
      roles_(roles),
      enabled_(enabled),
      rma_only_(rma_only),
      by_mpi_(enabled && (rma_only || cluster.node_count() > 1)) {
  if (!enabled_) return;
  const int index = roles.lock_agent_index(cluster.rank());
  if (index >= 0) {
    first_ = roles.first_lock_of(index);
    count_ = roles.locks_per_agent();
  }
  arena_ = NodeSharedArena(cluster, count_ * sizeof(Record));
  base_ = reinterpret_cast<Record*>(arena_.segment(cluster.node_rank()));
  if (count_ > 0) std::memset(static_cast<void*>(base_), 0, count_ * sizeof(Record));
  window_.emplace(base_, count_ * sizeof(Record), cluster.world());
  win_ = window_->handle();
  MPI_Barrier(cluster.world());
}

Record* RecordStore::shared(LockId record) const {
  if (rma_only_) return nullptr;
  const int node_rank = cluster_.node_rank_of(roles_.owner_of(record));
  if (node_rank < 0) return nullptr;
  return reinterpret_cast<Record*>(arena_.segment(node_rank)) + record % roles_.locks_per_agent();
}

void RecordStore::start_read(LockId record, Record* into) {
  if (Record* r = shared(record)) {
    *into = *r;
    return;
  }
  const auto slot = static_cast<MPI_Aint>((record % roles_.locks_per_agent()) * sizeof(Record));
  MPI_Get(into, sizeof(Record), MPI_BYTE, roles_.owner_of(record), slot, sizeof(Record), MPI_BYTE, win_);
}

void RecordStore::write(LockId record, const Record& value) {
  if (Record* r = shared(record)) {
    *r = value;
    return;
  }
  const auto slot = static_cast<MPI_Aint>((record % roles_.locks_per_agent()) * sizeof(Record));
  MPI_Put(&value, sizeof(Record), MPI_BYTE, roles_.owner_of(record), slot, sizeof(Record), MPI_BYTE, win_);
}

void RecordStore::complete() {
  if (by_mpi_) MPI_Win_flush_all(win_);
}

Record& RecordStore::local(LockId record) {
  if (record < first_ || record - first_ >= count_) {
    throw Error("record " + std::to_string(record) + " is not stored at this lock agent");
  }
  sync();
  return base_[record - first_];
}

std::vector<std::pair<LockId, TxnId>> RecordStore::written_versions() const {
  sync();
  std::vector<std::pair<LockId, TxnId>> out;
  for (LockId i = 0; i < count_; ++i)
    if (base_[i].version != 0) out.emplace_back(first_ + i, base_[i].version);
  return out;
}

}  // namespace hpcdb
