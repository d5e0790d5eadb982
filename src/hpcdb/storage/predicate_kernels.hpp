#pragma once
// Evaluating one predicate over the rows of a block (at most 65,536 rows, as
// 16-bit row numbers), the two ways a scan needs:
//   dense: every row, into a byte per row (1 = still passing); range
//     predicates this way are a subtraction and one unsigned comparison per
//     value, which the compiler turns into SIMD code (AVX2 where the CPU has
//     it, chosen when the program starts), a few values per cycle on 1-byte
//     codes and narrow integers;
//   listed: the rows still passing, as a list that shrinks; for set
//     predicates (a bitmap lookup per row) and for few rows.
#include <cstddef>
#include <cstdint>

#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/predicate.hpp"

namespace hpcdb {

// A predicate bound to the column it reads.
struct BoundPredicate {
  const std::byte* column = nullptr;
  ColumnType type = ColumnType::i32;
  const Predicate* predicate = nullptr;
  std::int64_t value(std::size_t row) const {
    switch (type) {
      case ColumnType::u8: return reinterpret_cast<const std::uint8_t*>(column)[row];
      case ColumnType::u16: return reinterpret_cast<const std::uint16_t*>(column)[row];
      case ColumnType::i32: return reinterpret_cast<const std::int32_t*>(column)[row];
      case ColumnType::i64: return reinterpret_cast<const std::int64_t*>(column)[row];
      case ColumnType::text: break;
    }
    return 0;
  }
};

// pass[i] &= (row first + i passes the range predicate `b`), for i < rows.
void and_range(const BoundPredicate& b, std::size_t first, std::size_t rows, std::uint8_t* pass);
// Set bits in words[0 .. n).
std::uint64_t count_bits(const std::uint64_t* words, std::size_t n);
// Functions that write a row list may write up to kListSlack entries past
// the rows they return (room the list must have).
constexpr std::size_t kListSlack = 8;
// The i < rows with pass[i] != 0, in order, into `list`; returns how many.
std::size_t list_passing(const std::uint8_t* pass, std::size_t rows, std::uint16_t* list);
// The i < rows whose row first + i passes `b` (range or set), in order, into
// `list`; returns how many. A set on 4-byte values: 8 values at a time
// (AVX2 gathers of the bitmap's words).
std::size_t list_passing_one(const BoundPredicate& b, std::size_t first, std::size_t rows, std::uint16_t* list);
// Keeps, of the `n` block rows in `list` (offsets from `first`), those whose
// value passes `b` (range or set); returns how many.
std::size_t keep_passing(const BoundPredicate& b, std::size_t first, std::uint16_t* list, std::size_t n);

}  // namespace hpcdb
