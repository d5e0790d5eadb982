#include "hpcdb/storage/result_format.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

RecordLayout RecordLayout::of(const TableSchema& schema, std::vector<std::uint16_t> columns, std::size_t queries) {
  RecordLayout l;
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  for (std::uint16_t c : columns) {
    if (c >= schema.columns.size()) {
      throw Error("table " + schema.name + " has no column " + std::to_string(c) + " to return");
    }
    l.columns.push_back(c);
    l.offsets.push_back(l.record_bytes);
    const auto w = static_cast<std::uint16_t>(schema.columns[c].width());
    l.widths.push_back(w);
    l.record_bytes += w;
  }
  l.bitset_bytes = static_cast<std::uint32_t>(8 * ((queries + 63) / 64));
  return l;
}

int RecordLayout::offset_of(std::uint16_t column) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == column) return static_cast<int>(offsets[i]);
  }
  return -1;
}

}  // namespace hpcdb
