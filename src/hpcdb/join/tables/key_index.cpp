#include "hpcdb/join/tables/key_index.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "hpcdb/core/cpu_dispatch.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"

namespace hpcdb {
namespace {

// Dense keys take a slot each up to this many slots a row (4-byte slots:
// at most 16 bytes a row, as much as a hashed index's key and chain).
constexpr std::uint64_t kDenseSlotsPerRow = 4;
// Ascending keys likewise (a quarter of a byte a slot: at most 16 bytes a row).
constexpr std::uint64_t kAscendingSlotsPerRow = 64;

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
  // The keys' range and count, and whether they ascend, first; then the
  // rows go in (the keys held between the two passes, or computed again).
  std::uint64_t indexed = 0;
  auto least = std::numeric_limits<std::int64_t>::max(), most = std::numeric_limits<std::int64_t>::min();
  bool ascending = true;
  std::vector<RowKeys> keys(batches);
  for (std::size_t b = 0; b < batches; ++b) {
    keys[b] = keys_of(b);
    for (std::size_t i = 0; i < keys[b].keys.size(); ++i) {
      valid_[first_rows[b] + i] = keys[b].valid[i];
      if (!keys[b].valid[i]) continue;
      const auto key = static_cast<std::int64_t>(keys[b].keys[i]);
      ascending = ascending && (indexed == 0 || key > most);
      ++indexed;
      least = std::min(least, key);
      most = std::max(most, key);
    }
    if (again) keys[b] = {};
  }
  choose_layout(rows, indexed, least, most, ascending);
  // From the last row to the first, so that a slot's chained rows are met in row order.
  for (std::size_t b = batches; b-- > 0;) {
    if (again) keys[b] = keys_of(b);
    for (std::size_t i = keys[b].keys.size(); i-- > 0;) {
      if (keys[b].valid[i]) insert(static_cast<std::uint32_t>(first_rows[b] + i), keys[b].keys[i]);
    }
    keys[b] = {};
  }
  if (layout_ == Layout::ascending) count_keys_before();
}

void KeyIndex::choose_layout(std::uint64_t rows, std::uint64_t indexed, std::int64_t least, std::int64_t most,
                             bool ascending) {
  // Dense or ascending: the span of direct keys is small next to their
  // count (hashed keys spread over all 64 bits, so they never are, but at
  // tiny counts). Ascending needs every row to have a key: a row is then
  // the number of keys before its own.
  const std::uint64_t span = indexed ? static_cast<std::uint64_t>(most) - static_cast<std::uint64_t>(least) + 1 : 0;
  const auto spans_at_most = [&](std::uint64_t slots_a_row) {
    return span > 0 && span <= slots_a_row * indexed + 1024;
  };
  if (indexed > 0 && indexed == rows && ascending && spans_at_most(kAscendingSlotsPerRow)) {
    layout_ = Layout::ascending;
    least_ = static_cast<std::uint64_t>(least);
    slots_ = span;
    assign_populated(words_, (span + 63) / 64, RankedWord{});
    return;
  }
  if (indexed > 0 && spans_at_most(kDenseSlotsPerRow)) {
    layout_ = Layout::dense;
    least_ = static_cast<std::uint64_t>(least);
    slots_ = span;
    assign_populated(head_, span, kNone);
    return;
  }
  layout_ = Layout::hashed;
  const unsigned bits =
      std::max(1u, static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(2 * indexed, 2) - 1)));
  shift_ = 64 - bits;
  slots_ = std::uint64_t{1} << bits;
  assign_populated(head_, slots_, kNone);
  assign_populated(keys_, rows, std::uint64_t{0});
  assign_populated(next_, rows, kNone);
}

HPCDB_CLONES_POPCNT void KeyIndex::count_keys_before() {
  std::uint64_t before = 0;
  for (RankedWord& word : words_) {
    word.before = before;
    before += static_cast<std::uint64_t>(std::popcount(word.bits));
  }
}

void KeyIndex::insert(std::uint32_t row, std::uint64_t key) {
  const std::uint64_t s = slot(key);
  if (layout_ == Layout::ascending) {
    words_[s / 64].bits |= std::uint64_t{1} << (s % 64);
    return;
  }
  std::uint32_t& first = head_[s];
  if (layout_ == Layout::dense) {
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
