#pragma once
// A hash index on the 64-bit keys (row_keys.hpp) of a broadcast join's
// build side (every row of it, on every rank), probed by the rows of the
// other side. Rows with the same slot are chained (a key's duplicates
// included). Dense integer keys (their range at most four slots a row) are
// indexed by value: a slot is the key less the smallest key, so a slot holds
// one key and no key is stored or compared, and a probe side in key order
// walks the index front to back; unique dense keys (a primary key) need no
// chain either. Other keys (hashed strings and composite keys, sparse
// integers) are indexed by a multiplicative hash, each row's key kept for the
// comparison. Equal 64-bit keys are matches; hashed keys' real values are
// compared afterwards.
#include <cstdint>
#include <functional>
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
    if (dense_) {
      for (std::uint32_t row = head_[s]; row != kNone; row = next_.empty() ? kNone : next_[row]) on_match(row);
      return;
    }
    for (std::uint32_t row = head_[s]; row != kNone; row = next_[row]) {
      if (keys_[row] == key) on_match(row);
    }
  }

  // Brings the slot of `key` into the cache ahead of a probe.
  void prefetch(std::uint64_t key) const {
    const std::uint64_t s = slot(key);
    if (s < head_.size()) __builtin_prefetch(&head_[s]);
  }

  bool dense() const { return dense_; }
  bool chained() const { return !next_.empty(); }
  std::uint64_t slots() const { return head_.size(); }
  // Rows in [first, last) without a key (a null in a key column).
  std::uint64_t keyless(std::uint64_t first, std::uint64_t last) const;

 private:
  // The keys of batch b (0 <= b < batches).
  using BatchKeys = std::function<RowKeys(std::size_t batch)>;
  // `again`: keys_of costs little enough to be called twice a batch (direct
  // keys: a copy) rather than every batch's keys being held meanwhile.
  void build(std::size_t batches, const std::vector<std::uint64_t>& first_rows, const BatchKeys& keys_of, bool again);
  void choose_slots(std::uint64_t indexed, std::int64_t least, std::int64_t most);
  void insert(std::uint32_t row, std::uint64_t key);

  std::uint64_t slot(std::uint64_t key) const {
    return dense_ ? key - least_ : (key * 0x9e3779b97f4a7c15ULL) >> shift_;
  }

  bool dense_ = false;
  std::uint64_t least_ = 0;
  unsigned shift_ = 63;
  std::vector<std::uint32_t> head_;
  std::vector<std::uint32_t> next_;  // per row: the slot's next row (hashed; dense with duplicates)
  std::vector<std::uint64_t> keys_;  // per row (hashed only)
  std::vector<std::uint8_t> valid_;  // 1 where a row has a key
};

}  // namespace hpcdb
