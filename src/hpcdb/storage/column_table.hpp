#pragma once
// A table (or a fragment of one) stored by column in memory: each column one
// contiguous array of fixed-width values, so that a scan reads only the
// columns its queries touch. Integers are 1, 2, 4 or 8 bytes; text is a
// fixed-width, zero-padded character field; strings of a fixed vocabulary are
// stored as small integer codes by whoever defines the schema.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace hpcdb {

enum class ColumnType : std::uint8_t { u8, u16, i32, i64, text };
std::size_t type_width(ColumnType type);  // bytes of one integer value (text: 0)

struct ColumnSpec {
  std::string name;
  ColumnType type = ColumnType::i32;
  std::uint16_t text_width = 0;  // bytes of a text value
  std::size_t width() const { return type == ColumnType::text ? text_width : type_width(type); }
};

struct TableSchema {
  std::string name;
  std::vector<ColumnSpec> columns;
  // The index of a column by name; Error naming the table when it has none.
  int column(std::string_view name) const;
  std::size_t row_width() const;  // bytes of all columns
};

// Smallest and largest value of an integer column (for query planning).
struct ColumnRange {
  std::int64_t min = 0;
  std::int64_t max = -1;  // max < min: no rows
  bool empty() const { return max < min; }
};

class ColumnTable {
 public:
  ColumnTable() = default;
  explicit ColumnTable(TableSchema schema);

  const TableSchema& schema() const { return schema_; }
  std::size_t rows() const { return rows_; }
  std::size_t columns() const { return schema_.columns.size(); }

  // Raw values of column c: rows() x schema().columns[c].width() bytes.
  const std::byte* data(std::size_t c) const { return columns_[c].data(); }
  std::byte* data(std::size_t c) { return columns_[c].data(); }
  template <class T>
  const T* values(std::size_t c) const {
    return reinterpret_cast<const T*>(columns_[c].data());
  }

  // Integer value of (row, column), whatever its width.
  std::int64_t value(std::size_t row, std::size_t c) const;
  void set_value(std::size_t row, std::size_t c, std::int64_t v);
  std::string_view text(std::size_t row, std::size_t c) const;  // without the zero padding
  void set_text(std::size_t row, std::size_t c, std::string_view v);

  // Adds `n` zeroed rows at the end; returns the first new row.
  std::size_t add_rows(std::size_t n);
  // Puts the rows in the order of `column`'s values (rows with equal values
  // keep their order): a table's clustering, which lets a zone map skip
  // the rows a predicate on that column rules out. An integer column only.
  void cluster_by(std::size_t column);
  void reserve(std::size_t rows);

  ColumnRange range(std::size_t c) const;  // computed on every call: cache it
  std::size_t bytes() const;

 private:
  TableSchema schema_;
  std::vector<std::vector<std::byte>> columns_;
  std::size_t rows_ = 0;
};

}  // namespace hpcdb
