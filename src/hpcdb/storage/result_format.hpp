#pragma once
// The result batch format of the batch interface (after SharedDB/FBX): a
// storage operator copies each result tuple's record (the projected columns)
// and its query-id set (a bitset over the batch's queries of one engine, bit
// i = the engine's i-th query in START BATCH order) into a result batch,
// which travels as sequence-numbered pieces:
//
//   general layout:    header | tuple section | data section
//   tuple-free layout: header | data section
//
// The data section holds, per tuple, its bitset then its record, one tuple
// after the other. The tuple section holds per tuple the offsets of its
// bitset and record within the data section and one 8-byte field of
// query-specific data (a lookup's key); on the storage side these are
// pointers, turned into offsets before sending and back into pointers on
// arrival. For selections the tuple section says nothing the receiver cannot
// compute (tuple i starts at i x (bitset bytes + record bytes)), so it is
// not sent: "tuple-free" results.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/storage/column_table.hpp"

namespace hpcdb {

enum class ResultLayout : std::uint8_t { tuple_free = 0, general = 1 };

// Which columns a record holds, where, and how wide its bitsets are.
struct RecordLayout {
  std::vector<std::uint16_t> columns;  // table columns, in record order
  std::vector<std::uint32_t> offsets;  // of each column within the record
  std::vector<std::uint16_t> widths;
  std::uint32_t record_bytes = 0;
  std::uint32_t bitset_bytes = 0;      // 8 x ceil(queries / 64)

  static RecordLayout of(const TableSchema& schema, std::vector<std::uint16_t> columns, std::size_t queries);
  std::uint32_t tuple_bytes() const { return bitset_bytes + record_bytes; }
  // The offset of a table column in the record, or -1 when not projected.
  int offset_of(std::uint16_t column) const;
};

// One entry of the tuple section (pointers on the storage side, offsets
// from the data section's start on the wire).
struct TupleEntry {
  std::uint64_t bitset = 0;
  std::uint64_t record = 0;
  std::int64_t extra = 0;
};

}  // namespace hpcdb
