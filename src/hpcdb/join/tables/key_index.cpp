#include "hpcdb/join/tables/key_index.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Dense keys take a slot each up to this many slots a row (4-byte slots:
// at most 16 bytes a row, as much as a hashed index's entries).
constexpr std::uint64_t kDenseSlotsPerRow = 4;

void require_rows(std::uint64_t rows) {
  if (rows >= KeyIndex::kNone) throw Error("a broadcast join's build side has too many rows for its index");
}

}  // namespace

KeyIndex::KeyIndex(const RowKeys& keys) {
  require_rows(keys.keys.size());
  entries_.resize(keys.keys.size());
  valid_.resize(keys.keys.size());
  add_keys(keys, 0);
  link();
}

KeyIndex::KeyIndex(const DistributedTable& table, const std::vector<int>& key_columns, KeyEncoding encoding,
                   unsigned hash_bits) {
  const auto rows = static_cast<std::uint64_t>(table.rows());
  require_rows(rows);
  entries_.resize(rows);
  valid_.resize(rows);
  std::uint64_t first = 0;
  for (const auto& batch : table.batches) {
    add_keys(row_keys(DistributedTable{table.schema, {batch}}, key_columns, encoding, hash_bits), first);
    first += static_cast<std::uint64_t>(batch->num_rows());
  }
  link();
}

void KeyIndex::add_keys(const RowKeys& keys, std::uint64_t first) {
  for (std::size_t i = 0; i < keys.keys.size(); ++i) {
    entries_[first + i] = {keys.keys[i], kNone};
    valid_[first + i] = keys.valid[i];
  }
}

void KeyIndex::link() {
  const std::size_t rows = entries_.size();
  std::uint64_t indexed = 0;
  auto least = std::numeric_limits<std::int64_t>::max(), most = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < rows; ++i) {
    if (!valid_[i]) continue;
    ++indexed;
    least = std::min(least, static_cast<std::int64_t>(entries_[i].key));
    most = std::max(most, static_cast<std::int64_t>(entries_[i].key));
  }
  // Dense: the span of direct keys is small next to their count (hashed keys
  // spread over all 64 bits, so they never are, but at tiny counts).
  const std::uint64_t span = indexed ? static_cast<std::uint64_t>(most) - static_cast<std::uint64_t>(least) + 1 : 0;
  dense_ = indexed > 0 && span > 0 && span <= kDenseSlotsPerRow * indexed + 1024;
  std::uint64_t slots = 0;
  if (dense_) {
    least_ = static_cast<std::uint64_t>(least);
    slots = span;
  } else {
    const unsigned bits = std::max(1u, static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(2 * indexed, 2) - 1)));
    shift_ = 64 - bits;
    slots = std::uint64_t{1} << bits;
  }
  head_.assign(slots, kNone);
  // Rows chain from the last to the first, so a slot's rows are met in row order.
  for (std::size_t i = rows; i-- > 0;) {
    if (!valid_[i]) continue;
    std::uint32_t& first = head_[slot(entries_[i].key)];
    entries_[i].next = first;
    first = static_cast<std::uint32_t>(i);
  }
}

std::uint64_t KeyIndex::keyless(std::uint64_t first, std::uint64_t last) const {
  return static_cast<std::uint64_t>(std::count(valid_.begin() + static_cast<std::ptrdiff_t>(first),
                                               valid_.begin() + static_cast<std::ptrdiff_t>(last), std::uint8_t{0}));
}

}  // namespace hpcdb
