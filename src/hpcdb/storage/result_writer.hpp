#pragma once
// Fills the result pieces of one batch for one query engine in the result
// batch format (result_format.hpp) and ships each full piece. Tuple-free:
// each tuple's bitset and record are written straight into the outgoing
// piece. General: tuples are first gathered in a storage-side result batch
// whose tuple section holds pointers, which is then translated (pointers to
// offsets) and compacted into the outgoing piece, as a storage engine whose
// results need their tuple section must.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/storage/result_format.hpp"
#include "hpcdb/storage/result_stream.hpp"

namespace hpcdb {

struct ResultCounts {
  std::uint64_t tuples = 0;
  std::uint64_t pieces = 0;
  std::uint64_t data_bytes = 0;           // data sections
  std::uint64_t tuple_section_bytes = 0;  // sent (general layout)
  std::uint64_t tuple_section_saved = 0;  // not sent (tuple-free layout)
  double ship_seconds = 0;                // pieces finished, handed on, and the next one acquired
  ResultCounts& operator+=(const ResultCounts& o);
};

class ResultWriter {
 public:
  // `piece_bytes`: the largest piece (header included); at least one tuple
  // fits in every piece whatever this says.
  ResultWriter(ResultStream& stream, std::uint32_t table, std::uint32_t fragment, std::uint64_t batch,
               const RecordLayout& record, ResultLayout layout, std::size_t piece_bytes);

  // Room for one more tuple: its bitset (record().bitset_bytes) then its
  // record (record().record_bytes). `extra` is the tuple's query-specific
  // data (general layout only).
  std::byte* append(std::int64_t extra = 0) {
    if (used_ == per_piece_) next_piece();
    std::byte* slot = data_ + used_ * tuple_bytes_;
    if (layout_ == ResultLayout::general) {
      entries_.push_back({reinterpret_cast<std::uint64_t>(slot), reinterpret_cast<std::uint64_t>(slot + bitset_bytes_), extra});
    }
    ++used_;
    return slot;
  }
  // Ships what is pending; with `last`, flagged END BATCH (an empty piece if
  // nothing is pending). Nothing may be appended after the last piece.
  void flush(bool last);
  const RecordLayout& record() const { return record_; }
  const ResultCounts& counts() const { return counts_; }

 private:
  void next_piece();
  void start_buffer();
  void ship(bool last);

  ResultStream& stream_;
  ResultPieceHeader header_;
  RecordLayout record_;
  ResultLayout layout_;
  std::size_t tuple_bytes_;
  std::size_t bitset_bytes_;
  std::size_t per_piece_;
  std::unique_ptr<PieceBuffer> piece_;  // tuple-free: the outgoing piece
  std::vector<std::byte> staging_;      // general: the storage-side data section
  std::vector<TupleEntry> entries_;     // general: the tuple section, with pointers
  std::byte* data_ = nullptr;
  std::size_t used_ = 0;
  bool finished_ = false;
  ResultCounts counts_;
};

}  // namespace hpcdb
