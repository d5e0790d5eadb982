#pragma once
// Reads a RESULT piece that arrived (its size already checked against its
// header): tuple i's bitset and record. In the tuple-free layout their
// places follow from i alone; in the general layout the tuple section's
// offsets are turned back into pointers into this buffer, once per piece.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "hpcdb/storage/batch_messages.hpp"

namespace hpcdb {

class ResultPieceView {
 public:
  explicit ResultPieceView(std::span<const std::byte> bytes) {
    std::memcpy(&header_, bytes.data(), sizeof(header_));
    const std::byte* tuple_section = bytes.data() + sizeof(ResultPieceHeader);
    data_ = tuple_section + header_.tuple_section_bytes;
    if (header_.layout == ResultLayout::general) {
      pointers_.resize(header_.tuples);
      for (std::size_t i = 0; i < header_.tuples; ++i) {
        TupleEntry e;
        std::memcpy(&e, tuple_section + i * sizeof(TupleEntry), sizeof(e));
        pointers_[i] = {data_ + e.bitset, data_ + e.record, e.extra};
      }
    }
  }
  const ResultPieceHeader& header() const { return header_; }
  std::size_t tuples() const { return header_.tuples; }
  const std::byte* bitset(std::size_t i) const {
    return pointers_.empty() ? data_ + i * header_.tuple_bytes : pointers_[i].bitset;
  }
  // Bytes of the tuple's record start here (bitset bytes after its bitset).
  const std::byte* record(std::size_t i, std::size_t bitset_bytes) const {
    return pointers_.empty() ? data_ + i * header_.tuple_bytes + bitset_bytes : pointers_[i].record;
  }
  std::int64_t extra(std::size_t i) const { return pointers_.empty() ? 0 : pointers_[i].extra; }

 private:
  struct Pointers {
    const std::byte* bitset;
    const std::byte* record;
    std::int64_t extra;
  };
  ResultPieceHeader header_;
  const std::byte* data_ = nullptr;
  std::vector<Pointers> pointers_;
};

}  // namespace hpcdb
