#pragma once
// The lock-id space and who owns which lock. A lock names a key of a table
// within a partition (a warehouse in TPC-C), packed into one 64-bit id:
//
//   partition (20 bits) | table (6 bits) | key (38 bits)
//
// Partitions are dealt to the lock agents in consecutive equal ranges (the
// first `partitions % agents` agents take one more), so every lock agent owns
// one contiguous range of lock ids, and (table, key) -> lock id -> owning
// lock agent is pure arithmetic on every rank.
//
// The multi-granularity hierarchy is database -> table -> (table, partition)
// -> key. The database and table locks would be a single hot spot if each
// lived at one lock agent, so every lock agent holds its own copy of them:
// intention modes (IS, IX) are taken on the copy at the agent that owns the
// descendant, and a shared or exclusive lock on the whole database or table
// takes every copy (in agent order), which conflicts with any intention
// anywhere. The copies live in table 0 of the agent's first partition.
#include <cstdint>
#include <vector>

#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb {

struct LockName {
  std::uint32_t partition = 0;
  std::uint32_t table = 0;
  std::uint64_t key = 0;
  bool operator==(const LockName&) const = default;
};

class LockSpace {
 public:
  static constexpr int kPartitionBits = 20;
  static constexpr int kTableBits = 6;
  static constexpr int kKeyBits = 38;
  static constexpr std::uint32_t kMaxPartitions = 1u << kPartitionBits;
  static constexpr std::uint32_t kTables = 1u << kTableBits;
  static constexpr std::uint64_t kMaxKey = (std::uint64_t{1} << kKeyBits) - 2;  // the largest ordinary key
  static constexpr std::uint64_t kWholePartition = kMaxKey + 1;                // key of a (table, partition) lock
  static constexpr std::uint32_t kHierarchyTable = 0;  // holds the agents' database and table copies

  // `agent_ranks`: the lock agents' world ranks in lock-range order. Throws
  // UsageError when there are more lock agents than partitions.
  LockSpace(std::uint32_t partitions, std::vector<int> agent_ranks);

  static LockId id_of(const LockName& name) {
    return (static_cast<LockId>(name.partition) << (kTableBits + kKeyBits)) |
           (static_cast<LockId>(name.table) << kKeyBits) | name.key;
  }
  static LockName name_of(LockId lock) {
    return {static_cast<std::uint32_t>(lock >> (kTableBits + kKeyBits)),
            static_cast<std::uint32_t>((lock >> kKeyBits) & (kTables - 1)), lock & ((std::uint64_t{1} << kKeyBits) - 1)};
  }
  static std::uint32_t partition_of(LockId lock) { return static_cast<std::uint32_t>(lock >> (kTableBits + kKeyBits)); }

  std::uint32_t partitions() const { return partitions_; }
  int agents() const { return static_cast<int>(agent_ranks_.size()); }
  const std::vector<int>& agent_ranks() const { return agent_ranks_; }
  // The lock agent (index in lock-range order) that owns a partition, and its partitions [first, end).
  int agent_of_partition(std::uint32_t partition) const;
  std::uint32_t first_partition_of(int agent) const { return first_partition_[static_cast<std::size_t>(agent)]; }
  std::uint32_t end_partition_of(int agent) const { return first_partition_[static_cast<std::size_t>(agent) + 1]; }
  // The owning lock agent's world rank; throws Error for an id outside the space.
  int owner_of(LockId lock) const;
  // The ids an agent owns: [first, end).
  LockId first_lock_of(int agent) const { return id_of({first_partition_of(agent), 0, 0}); }
  LockId end_lock_of(int agent) const { return id_of({end_partition_of(agent), 0, 0}); }

  // The hierarchy.
  LockId database_lock(int agent) const { return id_of({first_partition_of(agent), kHierarchyTable, 0}); }
  LockId table_lock(std::uint32_t table, int agent) const {
    return id_of({first_partition_of(agent), kHierarchyTable, 1 + static_cast<std::uint64_t>(table)});
  }
  static LockId partition_lock(std::uint32_t table, std::uint32_t partition) {
    return id_of({partition, table, kWholePartition});
  }
  static LockId key_lock(std::uint32_t table, std::uint32_t partition, std::uint64_t key) {
    return id_of({partition, table, key});
  }

 private:
  std::uint32_t partitions_;
  std::vector<int> agent_ranks_;
  std::vector<std::uint32_t> first_partition_;  // per agent, plus the end
};

}  // namespace hpcdb
