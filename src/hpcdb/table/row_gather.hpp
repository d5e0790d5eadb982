#pragma once
// The two halves of moving picked rows of one column between ranks, on plain
// byte buffers: the owner writes the values of the rows asked of it
// (ShareColumn's gather_* functions), the asker puts what arrived, in the
// owners' order, into the order it asked (place_*). Fixed-width values move
// as their bytes; bools and validity as one byte per value (0 or 1); strings
// as their lengths (in the width of the type's offsets), then their bytes.
// Late materialization (join/tables/row_fetch.hpp) runs on these instead of
// Arrow's take kernel and IPC messages (five copies of each result column).
#include <arrow/array.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

// A row of a rank's share: its batch and its position in that batch.
struct RowLocation {
  std::uint32_t batch;
  std::uint32_t row;
};

// Where rows of a share lie, from their numbers within it (0 is its first
// batch's first row). A row in the batch of the one asked before is found at
// once: rows asked in ascending order cost no search.
class RowLocator {
 public:
  explicit RowLocator(const DistributedTable& table);
  std::uint64_t rows() const { return first_.back(); }
  // `row` < rows().
  RowLocation operator()(std::uint64_t row) {
    if (row < first_[batch_] || row >= first_[batch_ + 1]) find_batch(row);
    return {static_cast<std::uint32_t>(batch_), static_cast<std::uint32_t>(row - first_[batch_])};
  }

 private:
  void find_batch(std::uint64_t row);
  std::vector<std::uint64_t> first_;  // each batch's first row, then the share's row count
  std::size_t batch_ = 0;
};

// Where rows of the share are, given as 64-bit global row numbers in
// `rows` (native byte order), the share's first being `first_row` (Error if
// one is not in the share).
std::vector<RowLocation> locate_rows(const DistributedTable& table, std::span<const std::byte> rows,
                                     std::uint64_t first_row);

// One column of a rank's share, batch by batch.
class ShareColumn {
 public:
  ShareColumn(const DistributedTable& table, int column);

  const std::shared_ptr<arrow::DataType>& type() const { return type_; }
  bool has_nulls() const { return has_nulls_; }

  // The values' bytes, `width` bytes each (a fixed-width type).
  void gather_fixed(std::span<const RowLocation> rows, int width, std::byte* out) const;
  // One byte per row: 1 where the value is valid (`validity`) or true (a bool column).
  void gather_flags(std::span<const RowLocation> rows, bool validity, std::byte* out) const;
  // String lengths in the offsets' width (string_offset_bytes); returns their sum.
  std::uint64_t gather_lengths(std::span<const RowLocation> rows, std::byte* out) const;
  // The strings' bytes, one after the other, from `out`; the bytes after
  // them up to `out_end` (the end of the room, at least their sum) may be
  // written over too.
  void gather_string_bytes(std::span<const RowLocation> rows, std::byte* out, const std::byte* out_end) const;

 private:
  std::shared_ptr<arrow::DataType> type_;
  std::vector<std::shared_ptr<arrow::ArrayData>> chunks_;
  bool has_nulls_ = false;
};

// Bytes of a string length of `type` (4 for string, 8 for large_string).
int string_offset_bytes(const arrow::DataType& type);

// The sum of `count` string lengths of `type` (as gather_lengths writes them).
std::uint64_t sum_lengths(const arrow::DataType& type, const std::byte* lengths, std::uint64_t count);

// out[i] = received[placement[i]], values of `width` bytes.
void place_fixed(const std::byte* received, std::span<const std::uint64_t> placement, int width, std::byte* out);

// Bit i of `bitmap` = received[placement[i]] for i < rows (bytes 0 or 1; an
// empty placement is the identity). Returns how many bits are 0.
std::int64_t place_flags(const std::byte* received, std::span<const std::uint64_t> placement, std::uint8_t* bitmap,
                         std::int64_t rows);

// A string column of `type` from the lengths and bytes received in source
// order, in the order of `placement` (empty: the identity), with `validity`
// (may be null) and its null count. Error if the bytes do not fit the type's
// offsets.
std::shared_ptr<arrow::Array> place_strings(const std::shared_ptr<arrow::DataType>& type, const std::byte* lengths,
                                            const std::byte* bytes, std::span<const std::uint64_t> placement,
                                            std::int64_t rows, std::shared_ptr<arrow::Buffer> validity,
                                            std::int64_t null_count);

}  // namespace hpcdb
