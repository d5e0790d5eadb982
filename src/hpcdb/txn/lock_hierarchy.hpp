#pragma once
// The multi-granularity locking protocol over the lock space's hierarchy,
// database -> table -> (table, partition) -> key (lock_space.hpp): before a
// key is locked in S its ancestors are locked in IS, before X in IX, top
// down, each at the lock agent that owns the partition (every agent has its
// own copy of the database and table locks). Locks a transaction holds
// already in a covering mode are not asked for again, so a transaction pays
// for each ancestor once.
#include <cstdint>

#include "hpcdb/txn/transaction.hpp"

namespace hpcdb {

// IS for S and IS, IX for X, IX and SIX.
constexpr LockMode intention_for(LockMode mode) {
  return mode == LockMode::S || mode == LockMode::IS ? LockMode::IS : LockMode::IX;
}

// Locks the ancestors of (table, partition) in the intention of `mode`.
void lock_ancestors(Transaction& txn, std::uint32_t table, std::uint32_t partition, LockMode mode);

// Locks the ancestors, then the key; returns whether the key lock was asked
// for (false: already held in a covering mode). Throws AttemptAborted when denied.
bool lock_key(Transaction& txn, std::uint32_t table, std::uint32_t partition, std::uint64_t key, LockMode mode);

}  // namespace hpcdb
