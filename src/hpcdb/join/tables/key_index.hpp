#pragma once
// An index on the 64-bit keys (row_keys.hpp) of a broadcast join's
// build side (every row of it, on every rank), probed by the rows of the
// other side. Its layout follows the keys:
//  - ascending: unique keys rising with the rows, no row without one (a
//    primary key in its order, as TPC-H's tables and most generated ids
//    are), spanning at most 64 slots a row: a bitmap of the keys present
//    (key less the smallest key), each 64-bit word with the count of keys
//    before it, so a key's row is that count plus the bits set below it in
//    its word. A quarter of a byte a slot (15 MB for TPC-H SF10's orders
//    against 240 MB dense), and probes in key order walk it front to back;
//  - dense: integer keys spanning at most four slots a row, a slot the key
//    less the smallest key, holding its first row (no key stored or
//    compared); rows of one key chained, unique keys need no chain;
//  - hashed: the others (hashed strings and composite keys, sparse
//    integers), by a multiplicative hash, rows of a slot chained, each row's
//    key kept for the comparison.
// Equal 64-bit keys are matches; hashed keys' real values are compared
// afterwards.
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/row_keys.hpp"

namespace hpcdb {

class KeyIndex {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  enum class Layout { ascending, dense, hashed };

  // Indexes the rows of `keys` that have a key (fewer than 2^32 - 1 rows).
  explicit KeyIndex(const RowKeys& keys);
  // The same for the keys of `table`'s rows (batch order), computed a batch
  // at a time.
  KeyIndex(const DistributedTable& table, const std::vector<int>& key_columns, KeyEncoding encoding,
           unsigned hash_bits);

  // Calls on_match(row) for every indexed row whose key is `key`, in row
  // order. Always inlined: a probe loop calls it once a row.
  template <class OnMatch>
  [[gnu::always_inline]] void for_each_match(std::uint64_t key, OnMatch&& on_match) const {
    const std::uint64_t s = slot(key);
    if (s >= slots_) return;
    switch (layout_) {
      case Layout::ascending: {
        const RankedWord& word = words_[s / 64];
        const std::uint64_t below = (std::uint64_t{1} << (s % 64)) - 1;
        if ((word.bits >> (s % 64)) & 1) {
          on_match(static_cast<std::uint32_t>(word.before + std::popcount(word.bits & below)));
        }
        return;
      }
      case Layout::dense:
        for (std::uint32_t row = head_[s]; row != kNone; row = next_.empty() ? kNone : next_[row]) on_match(row);
        return;
      case Layout::hashed:
        for (std::uint32_t row = head_[s]; row != kNone; row = next_[row]) {
          if (keys_[row] == key) on_match(row);
        }
        return;
    }
  }

  // Brings the slot of `key` into the cache ahead of a probe.
  void prefetch(std::uint64_t key) const {
    const std::uint64_t s = slot(key);
    if (s >= slots_) return;
    if (layout_ == Layout::ascending) {
      __builtin_prefetch(&words_[s / 64]);
    } else {
      __builtin_prefetch(&head_[s]);
    }
  }

  Layout layout() const { return layout_; }
  bool chained() const { return !next_.empty(); }
  std::uint64_t slots() const { return slots_; }
  // Rows in [first, last) without a key (a null in a key column).
  std::uint64_t keyless(std::uint64_t first, std::uint64_t last) const;

 private:
  // 64 slots of the ascending layout: which hold a key, and how many keys
  // the slots before them hold.
  struct RankedWord {
    std::uint64_t bits = 0;
    std::uint64_t before = 0;
  };
  // The keys of batch b (0 <= b < batches).
  using BatchKeys = std::function<RowKeys(std::size_t batch)>;
  // `again`: keys_of costs little enough to be called twice a batch (direct
  // keys: a copy) rather than every batch's keys being held meanwhile.
  void build(std::size_t batches, const std::vector<std::uint64_t>& first_rows, const BatchKeys& keys_of, bool again);
  void choose_layout(std::uint64_t rows, std::uint64_t indexed, std::int64_t least, std::int64_t most, bool ascending);
  void insert(std::uint32_t row, std::uint64_t key);
  void count_keys_before();

  std::uint64_t slot(std::uint64_t key) const {
    return layout_ == Layout::hashed ? (key * 0x9e3779b97f4a7c15ULL) >> shift_ : key - least_;
  }

  Layout layout_ = Layout::hashed;
  std::uint64_t least_ = 0;
  unsigned shift_ = 63;
  std::uint64_t slots_ = 0;
  std::vector<RankedWord> words_;    // ascending
  std::vector<std::uint32_t> head_;  // per slot: its first row (dense, hashed)
  std::vector<std::uint32_t> next_;  // per row: the slot's next row (hashed; dense with duplicates)
  std::vector<std::uint64_t> keys_;  // per row (hashed only)
  std::vector<std::uint8_t> valid_;  // 1 where a row has a key
};

}  // namespace hpcdb
