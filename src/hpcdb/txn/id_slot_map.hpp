#pragma once
// A hash map from 64-bit ids (locks, transactions) to 32-bit slot numbers,
// with open addressing and linear probing in one flat array: no allocation per
// insert, so a lock agent can create and drop an entry per request. Deletion
// shifts the following entries back (no tombstones), so probes stay short.
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace hpcdb {

class IdSlotMap {
 public:
  explicit IdSlotMap(std::size_t expected = 1024) { rehash(capacity_for(expected)); }

  std::optional<std::uint32_t> find(std::uint64_t id) const {
    for (std::size_t i = home(id);; i = (i + 1) & mask_) {
      if (!cells_[i].used) return std::nullopt;
      if (cells_[i].id == id) return cells_[i].slot;
    }
  }

  // Inserts id -> slot; the id must not be present.
  void insert(std::uint64_t id, std::uint32_t slot) {
    if (2 * (size_ + 1) > cells_.size()) rehash(2 * cells_.size());
    std::size_t i = home(id);
    while (cells_[i].used) i = (i + 1) & mask_;
    cells_[i] = {id, slot, true};
    ++size_;
  }

  // Removes id if present.
  void erase(std::uint64_t id) {
    std::size_t i = home(id);
    for (; !(cells_[i].used && cells_[i].id == id); i = (i + 1) & mask_) {
      if (!cells_[i].used) return;
    }
    // Shift back every later entry of the run that may move into the gap.
    for (std::size_t j = (i + 1) & mask_; cells_[j].used; j = (j + 1) & mask_) {
      const std::size_t h = home(cells_[j].id);
      const bool between = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (between) continue;  // its home lies after the gap: it stays
      cells_[i] = cells_[j];
      i = j;
    }
    cells_[i].used = false;
    --size_;
  }

  std::size_t size() const { return size_; }

  template <class F>
  void for_each(F&& f) const {
    for (const Cell& c : cells_)
      if (c.used) f(c.id, c.slot);
  }

 private:
  struct Cell {
    std::uint64_t id = 0;
    std::uint32_t slot = 0;
    bool used = false;
  };

  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c < 2 * n) c *= 2;
    return c;
  }
  // Fibonacci hashing: the top bits of the product.
  std::size_t home(std::uint64_t id) const { return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> shift_); }

  void rehash(std::size_t capacity) {
    std::vector<Cell> old = std::move(cells_);
    cells_.assign(capacity, Cell{});
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    size_ = 0;
    for (const Cell& c : old)
      if (c.used) insert(c.id, c.slot);
  }

  std::vector<Cell> cells_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace hpcdb
