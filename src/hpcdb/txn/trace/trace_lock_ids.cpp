#include "hpcdb/txn/trace/trace_lock_ids.hpp"

#include <algorithm>
#include <unordered_map>

namespace hpcdb {
namespace {

bool in_hierarchy(LockId lock) { return LockSpace::name_of(lock).table == LockSpace::kHierarchyTable; }

// The warehouse each lock of `t` belongs to (see the header).
std::vector<std::uint32_t> owners(const TraceTransaction& t, std::uint32_t home) {
  std::vector<std::uint32_t> owner(t.locks.size(), home);
  std::uint32_t below = home;  // the warehouse of the next lock outside the hierarchy
  for (std::size_t i = t.locks.size(); i-- > 0;) {
    const LockId lock = t.locks[i].lock;
    if (!in_hierarchy(lock)) below = LockSpace::partition_of(lock);
    owner[i] = below;
  }
  return owner;
}

struct WarehouseLock {
  std::uint32_t warehouse;
  LockId lock;
  bool operator==(const WarehouseLock&) const = default;
};

struct WarehouseLockHash {
  std::size_t operator()(const WarehouseLock& l) const {
    return std::hash<LockId>()(l.lock * 0x9E3779B97F4A7C15ULL ^ l.warehouse);
  }
};

}  // namespace

std::uint64_t to_trace_lock_ids(std::vector<std::vector<TraceTransaction>>& files) {
  std::unordered_map<WarehouseLock, std::uint64_t, WarehouseLockHash> number;
  std::vector<std::uint64_t> count(files.size() + 1, 0);
  // First pass: number each warehouse's locks in order of appearance.
  std::vector<std::vector<std::uint32_t>> owner_of_lock;
  for (std::uint32_t home = 0; home < files.size(); ++home) {
    for (const TraceTransaction& t : files[home]) {
      auto owner = owners(t, home);
      for (std::size_t i = 0; i < t.locks.size(); ++i) {
        if (owner[i] >= count.size()) count.resize(owner[i] + 1, 0);
        if (number.try_emplace({owner[i], t.locks[i].lock}, count[owner[i]]).second) ++count[owner[i]];
      }
      owner_of_lock.push_back(std::move(owner));
    }
  }
  const std::uint64_t per_warehouse = std::max<std::uint64_t>(1, *std::max_element(count.begin(), count.end()));
  // Second pass: w * L + k.
  std::size_t n = 0;
  for (auto& file : files) {
    for (TraceTransaction& t : file) {
      const auto& owner = owner_of_lock[n++];
      for (std::size_t i = 0; i < t.locks.size(); ++i) {
        t.locks[i].lock = owner[i] * per_warehouse + number.at({owner[i], t.locks[i].lock});
      }
    }
  }
  return per_warehouse;
}

}  // namespace hpcdb
