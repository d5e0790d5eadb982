#include "hpcdb/query/dimension_table.hpp"

#include <algorithm>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

DimensionTable::DimensionTable(std::size_t words, std::size_t attributes)
    : words_(words),
      attributes_(attributes),
      stride_(words + (attributes + 1) / 2),
      pass_(words, 0),
      zero_(std::max<std::size_t>(1, words + (attributes + 1) / 2), 0) {}

std::size_t DimensionTable::find_or_add(std::int64_t key) {
  if ((keys_.size() + 1) * 2 > index_keys_.size()) {
    const std::size_t slots = std::max<std::size_t>(64, index_keys_.size() * 2);
    index_keys_.assign(slots, kEmpty);
    index_entries_.assign(slots, 0);
    index_mask_ = slots - 1;
    for (std::size_t e = 0; e < keys_.size(); ++e) {
      std::uint64_t s = hash(keys_[e]) & index_mask_;
      while (index_keys_[s] != kEmpty) s = (s + 1) & index_mask_;
      index_keys_[s] = keys_[e];
      index_entries_[s] = static_cast<std::uint32_t>(e);
    }
  }
  std::uint64_t s = hash(key) & index_mask_;
  while (index_keys_[s] != kEmpty) {
    if (index_keys_[s] == key) return index_entries_[s];
    s = (s + 1) & index_mask_;
  }
  const std::size_t e = keys_.size();
  index_keys_[s] = key;
  index_entries_[s] = static_cast<std::uint32_t>(e);
  keys_.push_back(key);
  build_.resize(build_.size() + stride_, 0);
  return e;
}

std::size_t DimensionTable::entry(std::int64_t key) {
  if (!slots_.empty() || !slot_keys_.empty()) throw Error("a dimension table got rows after it was sealed");
  if (key == kEmpty) throw Error("a dimension key is out of range");
  return find_or_add(key);
}

void DimensionTable::seal() {
  index_keys_ = {};
  index_entries_ = {};
  if (keys_.empty()) {
    direct_ = true;
    span_ = 0;
    return;
  }
  const auto [lo, hi] = std::minmax_element(keys_.begin(), keys_.end());
  const std::uint64_t span = static_cast<std::uint64_t>(*hi - *lo) + 1;
  if (span <= 64 * keys_.size() || span <= (std::uint64_t{1} << 16)) {
    direct_ = true;
    min_key_ = *lo;
    span_ = span;
    slots_.assign(span * stride_, 0);
    for (std::size_t e = 0; e < keys_.size(); ++e) {
      std::memcpy(slots_.data() + static_cast<std::size_t>(keys_[e] - min_key_) * stride_, build_.data() + e * stride_,
                  stride_ * sizeof(std::uint64_t));
    }
  } else {
    std::size_t slots = 64;
    while (slots < 2 * keys_.size()) slots *= 2;
    slot_keys_.assign(slots, kEmpty);
    slots_.assign(slots * stride_, 0);
    slot_mask_ = slots - 1;
    for (std::size_t e = 0; e < keys_.size(); ++e) {
      std::uint64_t s = hash(keys_[e]) & slot_mask_;
      while (slot_keys_[s] != kEmpty) s = (s + 1) & slot_mask_;
      slot_keys_[s] = keys_[e];
      std::memcpy(slots_.data() + s * stride_, build_.data() + e * stride_, stride_ * sizeof(std::uint64_t));
    }
  }
}

}  // namespace hpcdb
