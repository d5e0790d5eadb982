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

}  // namespace

KeyIndex::KeyIndex(const RowKeys& keys) {
  const std::size_t rows = keys.keys.size();
  if (rows >= kNone) throw Error("a broadcast join's build side has too many rows for its index");
  std::uint64_t indexed = 0;
  auto least = std::numeric_limits<std::int64_t>::max(), most = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < rows; ++i) {
    if (!keys.valid[i]) continue;
    ++indexed;
    least = std::min(least, static_cast<std::int64_t>(keys.keys[i]));
    most = std::max(most, static_cast<std::int64_t>(keys.keys[i]));
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
  entries_.resize(rows);
  // Rows chain from the last to the first, so a slot's rows are met in row order.
  for (std::size_t i = rows; i-- > 0;) {
    entries_[i].key = keys.keys[i];
    if (!keys.valid[i]) {
      entries_[i].next = kNone;
      continue;
    }
    std::uint32_t& first = head_[slot(keys.keys[i])];
    entries_[i].next = first;
    first = static_cast<std::uint32_t>(i);
  }
}

}  // namespace hpcdb
