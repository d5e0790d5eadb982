#include "hpcdb/join/tables/key_index.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"

namespace hpcdb {
namespace {

// Dense keys take a slot each up to this many slots a row (4-byte slots:
// at most 16 bytes a row, as much as a hashed index's key and chain).
constexpr std::uint64_t kDenseSlotsPerRow = 4;

}  // namespace

KeyIndex::KeyIndex(const RowKeys& keys) {
  build(1, {0, keys.keys.size()}, [&](std::size_t) { return keys; }, false);
}

KeyIndex::KeyIndex(const DistributedTable& table, const std::vector<int>& key_columns, KeyEncoding encoding,
                   unsigned hash_bits) {
  build(
      table.batches.size(), table.batch_first_rows(),
      [&](std::size_t b) {
        return row_keys(DistributedTable{table.schema, {table.batches[b]}}, key_columns, encoding, hash_bits);
      },
      encoding == KeyEncoding::direct);
}

void KeyIndex::build(std::size_t batches, const std::vector<std::uint64_t>& first_rows, const BatchKeys& keys_of,
                     bool again) {
  const std::uint64_t rows = first_rows.back();
  if (rows >= kNone) throw Error("a broadcast join's build side has too many rows for its index");
  assign_populated(valid_, rows, std::uint8_t{0});
  // The keys' range and count first, then the rows go in (the keys held
  // between the two passes, or computed again).
  std::uint64_t indexed = 0;
  auto least = std::numeric_limits<std::int64_t>::max(), most = std::numeric_limits<std::int64_t>::min();
  std::vector<RowKeys> keys(batches);
  for (std::size_t b = 0; b < batches; ++b) {
    keys[b] = keys_of(b);
    for (std::size_t i = 0; i < keys[b].keys.size(); ++i) {
      valid_[first_rows[b] + i] = keys[b].valid[i];
      if (!keys[b].valid[i]) continue;
      ++indexed;
      least = std::min(least, static_cast<std::int64_t>(keys[b].keys[i]));
      most = std::max(most, static_cast<std::int64_t>(keys[b].keys[i]));
    }
    if (again) keys[b] = {};
  }
  choose_slots(indexed, least, most);
  if (!dense_) {
    assign_populated(keys_, rows, std::uint64_t{0});
    assign_populated(next_, rows, kNone);
  }
  // From the last row to the first, so that a slot's rows are met in row order.
  for (std::size_t b = batches; b-- > 0;) {
    if (again) keys[b] = keys_of(b);
    for (std::size_t i = keys[b].keys.size(); i-- > 0;) {
      if (keys[b].valid[i]) insert(static_cast<std::uint32_t>(first_rows[b] + i), keys[b].keys[i]);
    }
    keys[b] = {};
  }
}

void KeyIndex::choose_slots(std::uint64_t indexed, std::int64_t least, std::int64_t most) {
  // Dense: the span of direct keys is small next to their count (hashed keys
  // spread over all 64 bits, so they never are, but at tiny counts).
  const std::uint64_t span = indexed ? static_cast<std::uint64_t>(most) - static_cast<std::uint64_t>(least) + 1 : 0;
  dense_ = indexed > 0 && span > 0 && span <= kDenseSlotsPerRow * indexed + 1024;
  if (dense_) {
    least_ = static_cast<std::uint64_t>(least);
    assign_populated(head_, span, kNone);
    return;
  }
  const unsigned bits = std::max(1u, static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(2 * indexed, 2) - 1)));
  shift_ = 64 - bits;
  assign_populated(head_, std::uint64_t{1} << bits, kNone);
}

void KeyIndex::insert(std::uint32_t row, std::uint64_t key) {
  std::uint32_t& first = head_[slot(key)];
  if (dense_) {
    // A second row of a key: from now on rows are chained.
    if (first != kNone && next_.empty()) assign_populated(next_, valid_.size(), kNone);
  } else {
    keys_[row] = key;
  }
  if (!next_.empty()) next_[row] = first;
  first = row;
}

std::uint64_t KeyIndex::keyless(std::uint64_t first, std::uint64_t last) const {
  return static_cast<std::uint64_t>(std::count(valid_.begin() + static_cast<std::ptrdiff_t>(first),
                                               valid_.begin() + static_cast<std::ptrdiff_t>(last), std::uint8_t{0}));
}

}  // namespace hpcdb
