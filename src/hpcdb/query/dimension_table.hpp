#pragma once
// The build side of a shared hash join: the rows one dimension table
// returned for a batch, by key, each with the bitset of the batch's queries
// whose selection it passed and the attributes the queries group by. A
// query that does not join this dimension passes through (pass_through()).
//
// Once sealed, each key's bitset and attributes sit together in one slot of
// `stride()` words (bitset words, then the attributes as 32-bit values), so
// that a probe touches one cache line. Keys spread over at most 64 times
// their number (dimension keys, dates as yyyymmdd) index the slots directly;
// others are hashed (open addressing).
#include <cstdint>
#include <vector>

namespace hpcdb {

class DimensionTable {
 public:
  // `words`: 64-bit words per bitset; `attributes`: values per entry.
  DimensionTable(std::size_t words, std::size_t attributes);

  std::size_t words() const { return words_; }
  std::size_t attributes() const { return attributes_; }
  std::vector<std::uint64_t>& pass_through() { return pass_; }
  const std::uint64_t* pass_through_words() const { return pass_.data(); }

  // Building: the entry of `key` (created empty on first use).
  std::size_t entry(std::int64_t key);
  std::uint64_t* mask(std::size_t e) { return build_.data() + e * stride_; }
  std::int32_t* values(std::size_t e) { return reinterpret_cast<std::int32_t*>(build_.data() + e * stride_ + words_); }
  // Calls f(key, mask) for every entry.
  template <class F>
  void for_each_entry(F&& f) const {
    for (std::size_t e = 0; e < keys_.size(); ++e) f(keys_[e], build_.data() + e * stride_);
  }
  std::size_t entries() const { return keys_.size(); }

  // Lays the entries out for probing; no entry() afterwards.
  void seal();
  bool direct() const { return direct_; }
  // The slot of `key`: its bitset, then its attributes (an all-zero slot
  // when the key is not here). Sealed tables only.
  const std::uint64_t* slot(std::int64_t key) const {
    if (direct_) {
      const auto d = static_cast<std::uint64_t>(key - min_key_);
      return d < span_ ? slots_.data() + d * stride_ : zero_.data();
    }
    std::uint64_t s = hash(key) & slot_mask_;
    while (slot_keys_[s] != kEmpty) {
      if (slot_keys_[s] == key) return slots_.data() + s * stride_;
      s = (s + 1) & slot_mask_;
    }
    return zero_.data();
  }
  // Where slot(key) will be, for prefetching (direct tables; else null).
  const std::uint64_t* slot_address(std::int64_t key) const {
    const auto d = static_cast<std::uint64_t>(key - min_key_);
    return direct_ && d < span_ ? slots_.data() + d * stride_ : nullptr;
  }
  static const std::int32_t* values_in(const std::uint64_t* slot, std::size_t words) {
    return reinterpret_cast<const std::int32_t*>(slot + words);
  }
  std::size_t stride() const { return stride_; }
  std::size_t slot_bytes() const { return slots_.size() * sizeof(std::uint64_t); }  // sealed

 private:
  static constexpr std::int64_t kEmpty = INT64_MIN;
  static std::uint64_t hash(std::int64_t key) { return static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ULL >> 7; }
  std::size_t find_or_add(std::int64_t key);

  std::size_t words_;
  std::size_t attributes_;
  std::size_t stride_;
  std::vector<std::uint64_t> pass_;
  std::vector<std::uint64_t> zero_;
  // Building.
  std::vector<std::int64_t> keys_;
  std::vector<std::uint64_t> build_;   // entries x stride
  std::vector<std::int64_t> index_keys_;  // open addressing over entries while building
  std::vector<std::uint32_t> index_entries_;
  std::uint64_t index_mask_ = 0;
  // Probing.
  bool direct_ = false;
  std::int64_t min_key_ = 0;
  std::uint64_t span_ = 0;
  std::vector<std::uint64_t> slots_;
  std::vector<std::int64_t> slot_keys_;
  std::uint64_t slot_mask_ = 0;
};

}  // namespace hpcdb
