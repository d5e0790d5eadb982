#include "hpcdb/storage/column_table.hpp"

#include <algorithm>
#include <limits>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

std::size_t type_width(ColumnType type) {
  switch (type) {
    case ColumnType::u8: return 1;
    case ColumnType::u16: return 2;
    case ColumnType::i32: return 4;
    case ColumnType::i64: return 8;
    case ColumnType::text: return 0;
  }
  return 0;
}

int TableSchema::column(std::string_view column_name) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column_name) return static_cast<int>(i);
  }
  throw Error("table " + name + " has no column " + std::string(column_name));
}

std::size_t TableSchema::row_width() const {
  std::size_t w = 0;
  for (const ColumnSpec& c : columns) w += c.width();
  return w;
}

ColumnTable::ColumnTable(TableSchema schema) : schema_(std::move(schema)), columns_(schema_.columns.size()) {}

std::int64_t ColumnTable::value(std::size_t row, std::size_t c) const {
  const std::byte* p = columns_[c].data();
  switch (schema_.columns[c].type) {
    case ColumnType::u8: return reinterpret_cast<const std::uint8_t*>(p)[row];
    case ColumnType::u16: return reinterpret_cast<const std::uint16_t*>(p)[row];
    case ColumnType::i32: return reinterpret_cast<const std::int32_t*>(p)[row];
    case ColumnType::i64: return reinterpret_cast<const std::int64_t*>(p)[row];
    case ColumnType::text: break;
  }
  throw Error("column " + schema_.columns[c].name + " of table " + schema_.name + " holds text, not numbers");
}

void ColumnTable::set_value(std::size_t row, std::size_t c, std::int64_t v) {
  std::byte* p = columns_[c].data();
  switch (schema_.columns[c].type) {
    case ColumnType::u8: reinterpret_cast<std::uint8_t*>(p)[row] = static_cast<std::uint8_t>(v); return;
    case ColumnType::u16: reinterpret_cast<std::uint16_t*>(p)[row] = static_cast<std::uint16_t>(v); return;
    case ColumnType::i32: reinterpret_cast<std::int32_t*>(p)[row] = static_cast<std::int32_t>(v); return;
    case ColumnType::i64: reinterpret_cast<std::int64_t*>(p)[row] = v; return;
    case ColumnType::text: break;
  }
  throw Error("column " + schema_.columns[c].name + " of table " + schema_.name + " holds text, not numbers");
}

std::string_view ColumnTable::text(std::size_t row, std::size_t c) const {
  const std::size_t w = schema_.columns[c].width();
  const auto* p = reinterpret_cast<const char*>(columns_[c].data() + row * w);
  return {p, strnlen(p, w)};
}

void ColumnTable::set_text(std::size_t row, std::size_t c, std::string_view v) {
  const std::size_t w = schema_.columns[c].width();
  if (v.size() > w) {
    throw Error("text '" + std::string(v) + "' is longer than column " + schema_.columns[c].name + " (" +
                std::to_string(w) + " bytes)");
  }
  std::byte* p = columns_[c].data() + row * w;
  std::memset(p, 0, w);
  std::memcpy(p, v.data(), v.size());
}

std::size_t ColumnTable::add_rows(std::size_t n) {
  const std::size_t first = rows_;
  rows_ += n;
  for (std::size_t c = 0; c < columns_.size(); ++c) columns_[c].resize(rows_ * schema_.columns[c].width());
  return first;
}

namespace {

// The rows in stable order of their values: counting where the values span
// at most a few times the rows (dates, codes, dense keys), else sorting.
std::vector<std::uint32_t> order_by_values(const ColumnTable& t, std::size_t column) {
  const std::size_t rows = t.rows();
  std::vector<std::uint32_t> order(rows);
  const ColumnRange range = t.range(column);
  const auto span = static_cast<std::uint64_t>(range.max - range.min) + 1;
  if (span <= 4 * static_cast<std::uint64_t>(rows) + 1024) {
    std::vector<std::uint32_t> start(span + 1, 0);
    for (std::size_t r = 0; r < rows; ++r) ++start[static_cast<std::size_t>(t.value(r, column) - range.min) + 1];
    for (std::size_t v = 1; v <= span; ++v) start[v] += start[v - 1];
    for (std::size_t r = 0; r < rows; ++r) order[start[static_cast<std::size_t>(t.value(r, column) - range.min)]++] = static_cast<std::uint32_t>(r);
  } else {
    for (std::size_t r = 0; r < rows; ++r) order[r] = static_cast<std::uint32_t>(r);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return t.value(a, column) < t.value(b, column); });
  }
  return order;
}

template <class T>
void gather(const std::byte* from, std::byte* to, const std::vector<std::uint32_t>& order) {
  const T* f = reinterpret_cast<const T*>(from);
  T* t = reinterpret_cast<T*>(to);
  for (std::size_t r = 0; r < order.size(); ++r) t[r] = f[order[r]];
}

}  // namespace

void ColumnTable::cluster_by(std::size_t column) {
  if (column >= columns() || schema_.columns[column].type == ColumnType::text) {
    throw Error("table " + schema_.name + " can be clustered by an integer column only");
  }
  if (rows_ > std::numeric_limits<std::uint32_t>::max()) throw Error("table " + schema_.name + " has too many rows to cluster");
  if (rows_ < 2) return;
  const std::vector<std::uint32_t> order = order_by_values(*this, column);
  std::vector<std::byte> moved;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const std::size_t w = schema_.columns[c].width();
    moved.resize(columns_[c].size());
    const std::byte* from = columns_[c].data();
    switch (w) {
      case 1: gather<std::uint8_t>(from, moved.data(), order); break;
      case 2: gather<std::uint16_t>(from, moved.data(), order); break;
      case 4: gather<std::uint32_t>(from, moved.data(), order); break;
      case 8: gather<std::uint64_t>(from, moved.data(), order); break;
      default:
        for (std::size_t r = 0; r < rows_; ++r) std::memcpy(moved.data() + r * w, from + std::size_t{order[r]} * w, w);
    }
    columns_[c].swap(moved);
  }
}

void ColumnTable::reserve(std::size_t rows) {
  for (std::size_t c = 0; c < columns_.size(); ++c) columns_[c].reserve(rows * schema_.columns[c].width());
}

namespace {

template <class T>
ColumnRange range_of(const T* values, std::size_t rows) {
  T lo = values[0];
  T hi = values[0];
  for (std::size_t i = 1; i < rows; ++i) {
    lo = std::min(lo, values[i]);
    hi = std::max(hi, values[i]);
  }
  return {static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
}

}  // namespace

ColumnRange ColumnTable::range(std::size_t c) const {
  if (rows_ == 0) return {};
  switch (schema_.columns[c].type) {
    case ColumnType::u8: return range_of(values<std::uint8_t>(c), rows_);
    case ColumnType::u16: return range_of(values<std::uint16_t>(c), rows_);
    case ColumnType::i32: return range_of(values<std::int32_t>(c), rows_);
    case ColumnType::i64: return range_of(values<std::int64_t>(c), rows_);
    case ColumnType::text: break;
  }
  return {};
}

std::size_t ColumnTable::bytes() const {
  std::size_t b = 0;
  for (const auto& c : columns_) b += c.size();
  return b;
}

}  // namespace hpcdb
