#pragma once
// A hash index on the 64-bit keys (row_keys.hpp) of a broadcast join's
// build side (every row of it, on every rank), probed by the rows of the
// other side. Rows with the same slot are chained (a key's duplicates
// included); a slot is the key itself less the smallest key when the keys
// are dense integers (then rows of keys in ascending order land in ascending
// slots, and a probe side in key order walks the index front to back), and
// a multiplicative hash of the key otherwise (hashed string and composite
// keys, sparse integers). Equal 64-bit keys are matches; hashed keys' real
// values are compared afterwards.
#include <cstdint>
#include <vector>

#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/row_keys.hpp"

namespace hpcdb {

class KeyIndex {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // Indexes the rows of `keys` that have a key (fewer than 2^32 - 1 rows).
  explicit KeyIndex(const RowKeys& keys);
  // The same for the keys of `table`'s rows (batch order), computed a batch
  // at a time.
  KeyIndex(const DistributedTable& table, const std::vector<int>& key_columns, KeyEncoding encoding,
           unsigned hash_bits);

  // Calls on_match(row) for every indexed row whose key is `key`, in row order.
  template <class OnMatch>
  void for_each_match(std::uint64_t key, OnMatch&& on_match) const {
    const std::uint64_t s = slot(key);
    if (s >= head_.size()) return;
    for (std::uint32_t row = head_[s]; row != kNone; row = entries_[row].next) {
      if (entries_[row].key == key) on_match(row);
    }
  }

  // Brings the slot of `key` into the cache ahead of a probe.
  void prefetch(std::uint64_t key) const {
    const std::uint64_t s = slot(key);
    if (s < head_.size()) __builtin_prefetch(&head_[s]);
  }

  bool dense() const { return dense_; }
  std::uint64_t slots() const { return head_.size(); }
  // Rows in [first, last) without a key (a null in a key column).
  std::uint64_t keyless(std::uint64_t first, std::uint64_t last) const;

 private:
  struct Entry {
    std::uint64_t key;
    std::uint32_t next;
  };

  std::uint64_t slot(std::uint64_t key) const {
    return dense_ ? key - least_ : (key * 0x9e3779b97f4a7c15ULL) >> shift_;
  }
  // Takes the keys of rows [first, first + keys.keys.size()).
  void add_keys(const RowKeys& keys, std::uint64_t first);
  // Chooses the slots from the keys taken, and chains the rows.
  void link();

  bool dense_ = false;
  std::uint64_t least_ = 0;
  unsigned shift_ = 63;
  std::vector<std::uint32_t> head_;
  std::vector<Entry> entries_;      // one per row of the build side
  std::vector<std::uint8_t> valid_;  // 1 where a row has a key
};

}  // namespace hpcdb
