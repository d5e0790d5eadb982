#include "hpcdb/storage/result_writer.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

ResultCounts& ResultCounts::operator+=(const ResultCounts& o) {
  tuples += o.tuples;
  pieces += o.pieces;
  data_bytes += o.data_bytes;
  tuple_section_bytes += o.tuple_section_bytes;
  tuple_section_saved += o.tuple_section_saved;
  ship_seconds += o.ship_seconds;
  return *this;
}

ResultWriter::ResultWriter(ResultStream& stream, std::uint32_t table, std::uint32_t fragment, std::uint64_t batch,
                           const RecordLayout& record, ResultLayout layout, std::size_t piece_bytes)
    : stream_(stream),
      record_(record),
      layout_(layout),
      tuple_bytes_(record.tuple_bytes()),
      bitset_bytes_(record.bitset_bytes) {
  header_.layout = layout;
  header_.table = table;
  header_.fragment = fragment;
  header_.batch = batch;
  header_.tuple_bytes = static_cast<std::uint32_t>(tuple_bytes_);
  const std::size_t per_tuple = tuple_bytes_ + (layout == ResultLayout::general ? sizeof(TupleEntry) : 0);
  const std::size_t room = piece_bytes > sizeof(ResultPieceHeader) ? piece_bytes - sizeof(ResultPieceHeader) : 0;
  per_piece_ = std::max<std::size_t>(1, per_tuple == 0 ? 1 << 20 : room / per_tuple);
  // A bitset of zero bytes (no queries) with an empty record still counts tuples.
  start_buffer();
}

void ResultWriter::start_buffer() {
  used_ = 0;
  if (layout_ == ResultLayout::tuple_free) {
    piece_ = stream_.acquire(sizeof(ResultPieceHeader) + per_piece_ * tuple_bytes_);
    data_ = piece_->data() + sizeof(ResultPieceHeader);
  } else {
    staging_.resize(std::max<std::size_t>(1, per_piece_ * tuple_bytes_));
    entries_.clear();
    entries_.reserve(per_piece_);
    data_ = staging_.data();
  }
}

void ResultWriter::next_piece() {
  const auto start = std::chrono::steady_clock::now();
  ship(false);
  start_buffer();
  counts_.ship_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void ResultWriter::flush(bool last) {
  if (finished_) throw Error("result batch written after its END BATCH");
  if (used_ == 0 && !last) return;
  ship(last);
  if (last) {
    finished_ = true;
  } else {
    start_buffer();
  }
}

void ResultWriter::ship(bool last) {
  ResultPieceHeader h = header_;
  h.tuples = static_cast<std::uint32_t>(used_);
  h.last = last ? 1 : 0;
  counts_.tuples += used_;
  h.batch_tuples = counts_.tuples;
  const std::size_t data_bytes = used_ * tuple_bytes_;
  std::size_t bytes = sizeof(ResultPieceHeader) + data_bytes;
  std::unique_ptr<PieceBuffer> out;
  if (layout_ == ResultLayout::tuple_free) {
    out = std::move(piece_);
    counts_.tuple_section_saved += used_ * sizeof(TupleEntry);
  } else {
    // Translate the tuple section's pointers into offsets from the data
    // section's start and compact both sections into one buffer.
    h.tuple_section_bytes = used_ * sizeof(TupleEntry);
    bytes += h.tuple_section_bytes;
    out = stream_.acquire(bytes);
    auto* tuples = reinterpret_cast<TupleEntry*>(out->data() + sizeof(ResultPieceHeader));
    const auto base = reinterpret_cast<std::uint64_t>(staging_.data());
    for (std::size_t i = 0; i < used_; ++i) {
      tuples[i] = {entries_[i].bitset - base, entries_[i].record - base, entries_[i].extra};
    }
    if (data_bytes > 0) std::memcpy(out->data() + sizeof(ResultPieceHeader) + h.tuple_section_bytes, staging_.data(), data_bytes);
    counts_.tuple_section_bytes += h.tuple_section_bytes;
  }
  std::memcpy(out->data(), &h, sizeof(h));
  counts_.data_bytes += data_bytes;
  ++counts_.pieces;
  stream_.ship(std::move(out), bytes);
  used_ = 0;
}

}  // namespace hpcdb
