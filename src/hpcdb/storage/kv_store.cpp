#include "hpcdb/storage/kv_store.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/counter_rng.hpp"

namespace hpcdb {

std::int64_t PrimaryKey::of(const ColumnTable& table, std::size_t row) const {
  const std::int64_t v = table.value(row, static_cast<std::size_t>(first));
  return second < 0 ? v : v * multiplier + table.value(row, static_cast<std::size_t>(second));
}

KvStore::KvStore(const ColumnTable& table, PrimaryKey key) : schema_(table.schema()), key_(key), rows_(table.rows()) {
  std::vector<std::uint16_t> all(schema_.columns.size());
  std::iota(all.begin(), all.end(), 0);
  record_ = RecordLayout::of(schema_, all, 0);
  records_.resize(rows_ * record_.record_bytes);
  for (std::size_t c = 0; c < all.size(); ++c) {
    const std::size_t w = record_.widths[c];
    const std::byte* src = table.data(c);
    for (std::size_t r = 0; r < rows_; ++r) {
      std::memcpy(records_.data() + r * record_.record_bytes + record_.offsets[c], src + r * w, w);
    }
  }
  std::size_t slots = 16;
  while (slots < 2 * rows_) slots *= 2;
  slot_keys_.assign(slots, 0);
  slot_rows_.assign(slots, 0);
  slot_mask_ = slots - 1;
  for (std::size_t r = 0; r < rows_; ++r) {
    const std::int64_t k = key_.of(table, r);
    std::uint64_t s = mix64(static_cast<std::uint64_t>(k)) & slot_mask_;
    while (slot_rows_[s] != 0) {
      if (slot_keys_[s] == k) throw Error("table " + schema_.name + " has two rows with key " + std::to_string(k));
      s = (s + 1) & slot_mask_;
    }
    slot_keys_[s] = k;
    slot_rows_[s] = static_cast<std::uint32_t>(r + 1);
  }
}

std::optional<std::size_t> KvStore::find(std::int64_t key) const {
  std::uint64_t s = mix64(static_cast<std::uint64_t>(key)) & slot_mask_;
  while (slot_rows_[s] != 0) {
    if (slot_keys_[s] == key) return slot_rows_[s] - 1;
    s = (s + 1) & slot_mask_;
  }
  return std::nullopt;
}

bool KvStore::update(std::int64_t key, std::uint16_t column, std::int64_t value) {
  if (column >= schema_.columns.size() || schema_.columns[column].type == ColumnType::text ||
      column == key_.first || static_cast<int>(column) == key_.second) {
    throw Error("column " + std::to_string(column) + " of table " + schema_.name + " cannot be updated");
  }
  const std::optional<std::size_t> row = find(key);
  if (!row) return false;
  std::byte* field = records_.data() + *row * record_.record_bytes + record_.offsets[column];
  switch (schema_.columns[column].type) {
    case ColumnType::u8: { const auto v = static_cast<std::uint8_t>(value); std::memcpy(field, &v, 1); break; }
    case ColumnType::u16: { const auto v = static_cast<std::uint16_t>(value); std::memcpy(field, &v, 2); break; }
    case ColumnType::i32: { const auto v = static_cast<std::int32_t>(value); std::memcpy(field, &v, 4); break; }
    case ColumnType::i64: std::memcpy(field, &value, 8); break;
    case ColumnType::text: break;
  }
  std::lock_guard lock(updates_mutex_);
  updates_.push_back({*row, column, value});
  if (keep_log_) log_.push_back({key, column, value});
  return true;
}

std::vector<LoggedUpdate> KvStore::log() const {
  std::lock_guard lock(updates_mutex_);
  return log_;
}

std::size_t KvStore::bytes() const {
  return records_.size() + slot_keys_.size() * sizeof(std::int64_t) + slot_rows_.size() * sizeof(std::uint32_t);
}

std::vector<RowUpdate> KvStore::take_updates() {
  std::lock_guard lock(updates_mutex_);
  return std::exchange(updates_, {});
}

void apply_updates(ColumnTable& table, std::vector<ColumnStats>& stats, const std::vector<RowUpdate>& updates) {
  for (const RowUpdate& u : updates) {
    table.set_value(u.row, u.column, u.value);
    note_values(stats[u.column], table.value(u.row, u.column));
  }
}

}  // namespace hpcdb
