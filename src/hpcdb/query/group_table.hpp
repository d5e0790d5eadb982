#pragma once
// One query's grouped aggregation: a hash table (open addressing, linear
// probing) from a packed group key to the running sum of the measure, each
// slot holding both, grown as groups appear.
#include <cstdint>
#include <vector>

#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {

class GroupTable {
 public:
  GroupTable() : slots_(kInitial) {}

  void add(std::uint64_t key, std::int64_t value) {
    const std::uint64_t stored = key + 1;  // 0 marks an empty slot
    std::size_t s = mix64(key) & (slots_.size() - 1);
    for (;;) {
      Slot& slot = slots_[s];
      if (slot.key == stored) {
        slot.sum += value;
        return;
      }
      if (slot.key == 0) {
        slot.key = stored;
        slot.sum = value;
        if (++groups_ * 2 > slots_.size()) grow();
        return;
      }
      s = (s + 1) & (slots_.size() - 1);
    }
  }
  std::size_t groups() const { return groups_; }
  // Calls f(key, sum) for every group, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_) {
      if (s.key != 0) f(s.key - 1, s.sum);
    }
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::int64_t sum = 0;
  };
  static constexpr std::size_t kInitial = 64;
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    groups_ = 0;
    for (const Slot& s : old) {
      if (s.key != 0) add(s.key - 1, s.sum);
    }
  }
  std::vector<Slot> slots_;
  std::size_t groups_ = 0;
};

// Up to three grouping values of up to 21 bits each in one key.
constexpr int kGroupKeyBits = 21;
constexpr int kMaxGroupColumns = 3;
constexpr std::uint64_t pack_group(std::uint64_t key, int index, std::int64_t value) {
  return key | (static_cast<std::uint64_t>(value) & ((std::uint64_t{1} << kGroupKeyBits) - 1)) << (index * kGroupKeyBits);
}
constexpr std::int64_t unpack_group(std::uint64_t key, int index) {
  return static_cast<std::int64_t>((key >> (index * kGroupKeyBits)) & ((std::uint64_t{1} << kGroupKeyBits) - 1));
}

}  // namespace hpcdb
