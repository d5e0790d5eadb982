#include "hpcdb/txn/record_store.hpp"

#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

RecordStore::RecordStore(MPI_Comm comm, const AgentRoles& roles, bool enabled) : roles_(roles), enabled_(enabled) {
  if (!enabled_) return;
  MPI_Comm_dup(comm, &comm_);
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  const int index = roles.lock_agent_index(rank);
  if (index >= 0) {
    first_ = roles.first_lock_of(index);
    count_ = roles.locks_per_agent();
  }
  void* base = nullptr;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "same_disp_unit", "true");
  const int rc = MPI_Win_allocate(static_cast<MPI_Aint>(count_ * sizeof(Record)), sizeof(Record), info, comm_, &base,
                                  &win_);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) throw Error("could not allocate the record window");
  base_ = static_cast<Record*>(base);
  if (count_ > 0) std::memset(static_cast<void*>(base_), 0, count_ * sizeof(Record));
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  MPI_Barrier(comm_);
}

RecordStore::~RecordStore() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Barrier(comm_);
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
  MPI_Comm_free(&comm_);
}

void RecordStore::start_read(LockId record, Record* into) {
  const int owner = roles_.owner_of(record);
  const auto slot = static_cast<MPI_Aint>(record % roles_.locks_per_agent());
  MPI_Get(into, sizeof(Record), MPI_BYTE, owner, slot, sizeof(Record), MPI_BYTE, win_);
}

void RecordStore::write(LockId record, const Record& value) {
  const int owner = roles_.owner_of(record);
  const auto slot = static_cast<MPI_Aint>(record % roles_.locks_per_agent());
  MPI_Put(&value, sizeof(Record), MPI_BYTE, owner, slot, sizeof(Record), MPI_BYTE, win_);
}

void RecordStore::complete() { MPI_Win_flush_all(win_); }

Record& RecordStore::local(LockId record) {
  if (record < first_ || record - first_ >= count_) {
    throw Error("record " + std::to_string(record) + " is not stored at this lock agent");
  }
  MPI_Win_sync(win_);
  return base_[record - first_];
}

std::vector<std::pair<LockId, TxnId>> RecordStore::written_versions() const {
  MPI_Win_sync(win_);
  std::vector<std::pair<LockId, TxnId>> out;
  for (LockId i = 0; i < count_; ++i)
    if (base_[i].version != 0) out.emplace_back(first_ + i, base_[i].version);
  return out;
}

}  // namespace hpcdb
