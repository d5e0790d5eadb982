#pragma once
// Test support: a transaction's lock agents and data in this process. Locks
// come from one lock table over the whole id space with no-wait (a serial
// test cannot wait for anyone), votes are yes unless told otherwise, and the
// data is plain memory per region.
#include <cstring>
#include <vector>

#include "hpcdb/txn/data_access.hpp"
#include "hpcdb/txn/lock_channel.hpp"
#include "hpcdb/txn/lock_table.hpp"

namespace hpcdb::testing {

class LocalLockService final : public LockChannel {
 public:
  LockAnswer acquire(int, TxnId txn, LockId lock, LockMode mode) override {
    ++requests;
    const auto r = table.request(txn, 0, lock, mode, 0);
    if (!r) return {false, LockMode::NL, DenyReason::conflict};
    return {r->granted, r->mode, r->reason};
  }
  void release(int, TxnId txn, LockId lock) override {
    ++releases;
    table.release(txn, lock);
  }
  bool vote(TxnId txn, std::span<const int> participants) override {
    ++votes;
    last_participants = participants.size();
    voter_held_locks = table.knows(txn);
    return vote_yes;
  }
  void end(TxnId txn, std::span<const int>, bool) override { table.release_all(txn); }

  LockTable table{0, ~LockId{0}, DeadlockPolicy::no_wait, 0};
  bool vote_yes = true;
  int requests = 0;
  int releases = 0;
  int votes = 0;
  std::size_t last_participants = 0;
  bool voter_held_locks = false;  // at the last vote, the transaction still held locks
};

class MemoryData final : public DataAccess {
 public:
  explicit MemoryData(std::vector<std::size_t> region_bytes) {
    for (std::size_t b : region_bytes) regions.emplace_back(b);
  }
  bool enabled() const override { return true; }
  void get(DataRef at, void* into, std::size_t bytes) override { std::memcpy(into, address(at, bytes), bytes); }
  void put(DataRef at, const void* from, std::size_t bytes) override { std::memcpy(address(at, bytes), from, bytes); }
  std::uint64_t load_word(DataRef at) override {
    std::uint64_t w;
    get(at, &w, sizeof w);
    return w;
  }
  void complete() override {}
  std::byte* region(std::uint32_t r) { return regions.at(r).data(); }

  std::vector<std::vector<std::byte>> regions;

 private:
  std::byte* address(DataRef at, std::size_t bytes) {
    auto& r = regions.at(at.region);
    if (at.offset + bytes > r.size()) throw std::out_of_range("access beyond a region");
    return r.data() + at.offset;
  }
};

}  // namespace hpcdb::testing
