#include "hpcdb/txn/lock_hierarchy.hpp"

namespace hpcdb {

void lock_ancestors(Transaction& txn, std::uint32_t table, std::uint32_t partition, LockMode mode) {
  const LockMode intention = intention_for(mode);
  const LockSpace& space = txn.space();
  const int agent = space.agent_of_partition(partition);
  txn.lock(space.database_lock(agent), intention);
  txn.lock(space.table_lock(table, agent), intention);
  txn.lock(LockSpace::partition_lock(table, partition), intention);
}

bool lock_key(Transaction& txn, std::uint32_t table, std::uint32_t partition, std::uint64_t key, LockMode mode) {
  lock_ancestors(txn, table, partition, mode);
  return txn.lock(LockSpace::key_lock(table, partition, key), mode);
}

}  // namespace hpcdb
