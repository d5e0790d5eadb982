#pragma once
// Lock ids as the thesis's artifact numbers them in its traces, and back.
//
// Recording: every lock belongs to one warehouse. A row, range or
// (table, warehouse) lock belongs to the warehouse in its id. A database or
// table lock is a lock agent's copy (lock_space.hpp), shared by all the
// warehouses of that agent; it is written as a copy of the warehouse it was
// taken for (that of the transaction's next lock outside the hierarchy), so
// that a replay with any number of lock agents takes it where it takes that
// warehouse's locks. Transactions take only intention modes on these locks,
// which never conflict with each other, so the split changes no conflict.
// Each warehouse's locks are numbered densely in the order they first appear
// (warehouse after warehouse, in commit order): lock k of warehouse w
// (0-based) becomes w * L + k, L being the most locks of any warehouse.
//
// Replay: trace lock id t names key t mod L of warehouse t / L, in a table of
// its own.
#include <cstdint>
#include <vector>

#include "hpcdb/txn/lock_space.hpp"
#include "hpcdb/txn/trace/lock_trace.hpp"

namespace hpcdb {

// Rewrites the lock ids of every transaction in place (files[w]: warehouse
// w's transactions, with this engine's lock ids); returns L (at least 1).
std::uint64_t to_trace_lock_ids(std::vector<std::vector<TraceTransaction>>& files);

// The table replayed locks live in (any other than the hierarchy's).
constexpr std::uint32_t kTraceLockTable = 1;

// This engine's lock for trace lock id `id`; its partition is id / L.
inline LockId from_trace_lock_id(std::uint64_t id, std::uint64_t locks_per_warehouse) {
  return LockSpace::key_lock(kTraceLockTable, static_cast<std::uint32_t>(id / locks_per_warehouse),
                             id % locks_per_warehouse);
}

}  // namespace hpcdb
