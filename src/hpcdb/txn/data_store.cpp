#include "hpcdb/txn/data_store.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {

DataStore::DataStore(const Cluster& cluster, const LockSpace& space, DataShape shape, bool enabled, bool rma_only)
    : cluster_(cluster),
      space_(space),
      shape_(shape),
      enabled_(enabled),
      rma_only_(rma_only),
      by_mpi_(enabled && (rma_only || cluster.node_count() > 1)) {
  if (!enabled_) return;
  const auto& ranks = space.agent_ranks();
  const auto me = std::find(ranks.begin(), ranks.end(), cluster.rank());
  std::uint64_t bytes = 0;
  if (me != ranks.end()) {
    my_agent_ = static_cast<int>(me - ranks.begin());
    const std::uint64_t partitions = space.end_partition_of(my_agent_) - space.first_partition_of(my_agent_);
    bytes = partitions * shape.partition_bytes + shape.replica_bytes;
  }
  arena_ = NodeSharedArena(cluster, bytes);
  window_.emplace(arena_.segment(cluster.node_rank()), bytes, cluster.world());
  win_ = window_->handle();
  MPI_Barrier(cluster.world());
}

int DataStore::owner_of(std::uint32_t region) const {
  if (region < space_.partitions()) return space_.agent_ranks()[static_cast<std::size_t>(space_.agent_of_partition(region))];
  const std::uint32_t agent = region - space_.partitions();
  if (agent >= static_cast<std::uint32_t>(space_.agents())) throw Error("data region " + std::to_string(region) + " does not exist");
  return space_.agent_ranks()[agent];
}

MPI_Aint DataStore::window_offset(DataRef at, std::size_t bytes) const {
  const std::uint64_t size = at.region < space_.partitions() ? shape_.partition_bytes : shape_.replica_bytes;
  if (at.offset > size || bytes > size - at.offset) {
    throw Error("a transaction reached " + std::to_string(bytes) + " bytes at offset " + std::to_string(at.offset) +
                " of data region " + std::to_string(at.region) + ", which holds " + std::to_string(size));
  }
  if (at.region < space_.partitions()) {
    const int agent = space_.agent_of_partition(at.region);
    return static_cast<MPI_Aint>((at.region - space_.first_partition_of(agent)) * shape_.partition_bytes + at.offset);
  }
  const int agent = static_cast<int>(at.region - space_.partitions());
  const std::uint64_t partitions = space_.end_partition_of(agent) - space_.first_partition_of(agent);
  return static_cast<MPI_Aint>(partitions * shape_.partition_bytes + at.offset);
}

std::byte* DataStore::shared_address(DataRef at, std::size_t bytes) const {
  if (rma_only_) return nullptr;
  const int node_rank = cluster_.node_rank_of(owner_of(at.region));
  if (node_rank < 0) return nullptr;
  return arena_.segment(node_rank) + window_offset(at, bytes);
}

void DataStore::get(DataRef at, void* into, std::size_t bytes) {
  if (std::byte* p = shared_address(at, bytes)) {
    std::memcpy(into, p, bytes);
    return;
  }
  const int owner = owner_of(at.region);
  if (puts_pending_) complete();  // a get may not overtake an earlier put to the same place
  MPI_Get(into, static_cast<int>(bytes), MPI_BYTE, owner, window_offset(at, bytes), static_cast<int>(bytes), MPI_BYTE,
          win_);
  MPI_Win_flush(owner, win_);
}

void DataStore::put(DataRef at, const void* from, std::size_t bytes) {
  if (std::byte* p = shared_address(at, bytes)) {
    std::memcpy(p, from, bytes);
    return;
  }
  MPI_Put(from, static_cast<int>(bytes), MPI_BYTE, owner_of(at.region), window_offset(at, bytes), static_cast<int>(bytes),
          MPI_BYTE, win_);
  puts_pending_ = true;
}

std::uint64_t DataStore::load_word(DataRef at) {
  if (std::byte* p = shared_address(at, sizeof(std::uint64_t))) {
    return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(p)).load(std::memory_order_acquire);
  }
  std::uint64_t word = 0;
  const int owner = owner_of(at.region);
  if (puts_pending_) complete();
  MPI_Fetch_and_op(nullptr, &word, MPI_UINT64_T, owner, window_offset(at, sizeof word), MPI_NO_OP, win_);
  MPI_Win_flush(owner, win_);
  return word;
}

void DataStore::complete() {
  if (!puts_pending_) return;
  MPI_Win_flush_all(win_);
  puts_pending_ = false;
}

std::byte* DataStore::local_partition(std::uint32_t partition) {
  if (my_agent_ < 0 || partition < space_.first_partition_of(my_agent_) || partition >= space_.end_partition_of(my_agent_)) {
    throw Error("partition " + std::to_string(partition) + " is not stored at this rank");
  }
  return arena_.segment(cluster_.node_rank()) + (partition - space_.first_partition_of(my_agent_)) * shape_.partition_bytes;
}

std::byte* DataStore::local_replica() {
  if (my_agent_ < 0) throw Error("only lock agents hold a replica");
  const std::uint64_t partitions = space_.end_partition_of(my_agent_) - space_.first_partition_of(my_agent_);
  return arena_.segment(cluster_.node_rank()) + partitions * shape_.partition_bytes;
}

}  // namespace hpcdb
