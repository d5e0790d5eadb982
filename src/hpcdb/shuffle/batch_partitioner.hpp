#pragma once
// The sending half of a streaming shuffle on one worker thread: routes each
// row to its destination rank and appends it to the batch buffer open for
// that destination; a full buffer is shipped and the next one opened.
//
// `Streams` supplies the buffers: open(dest) returns room for a batch's rows
// (cache-line aligned), ship(dest, rows, last) sends the open buffer with
// `rows` rows, `last` on the stream's final batch.
//
// Rows that tile a cache line (16, 32, 64 bytes) go through software
// write-combining (kernels/write_combiner.hpp): a staging line per
// destination, streamed out with non-temporal stores, so the buffers (which
// may be the destination's own receive ring) are written without being read.
// Other widths are copied row by row (CopyPartitioner).
#include <cstddef>
#include <cstring>
#include <vector>

#include "hpcdb/kernels/row.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/shuffle/row_router.hpp"

namespace hpcdb {

template <class RowT, class Streams>
class BatchPartitioner {
 public:
  BatchPartitioner(int ranks, std::size_t batch_rows, Streams& streams)
      : combiner_(static_cast<std::size_t>(ranks)),
        route_(ranks),
        batch_rows_(batch_rows),
        streams_(streams),
        begins_(static_cast<std::size_t>(ranks)) {}

  void start() {
    for (std::size_t d = 0; d < begins_.size(); ++d) open(d);
  }

  // Rows in[0, n) of the partitioner's width.
  void push(const std::byte* bytes, std::size_t n) {
    const auto* in = reinterpret_cast<const RowT*>(bytes);
    auto full = [this](std::size_t d) {
      WriteCombiner<RowT>::publish();
      streams_.ship(d, batch_rows_, false);
      open(d);
    };
    std::size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      const RowT& a = in[i];
      const RowT& b = in[i + 1];
      combiner_.push_pair(route_(a.key()), a, route_(b.key()), b, full);
    }
    if (i < n) {
      const std::size_t d = route_(in[i].key());
      if (combiner_.push(d, in[i])) full(d);
    }
  }

  // Ships every destination's open buffer as its stream's last batch.
  void finish() {
    std::vector<std::size_t> rows(begins_.size());
    for (std::size_t d = 0; d < begins_.size(); ++d) rows[d] = static_cast<std::size_t>(combiner_.drain(d) - begins_[d]);
    WriteCombiner<RowT>::publish();
    for (std::size_t d = 0; d < begins_.size(); ++d) streams_.ship(d, rows[d], true);
  }

 private:
  void open(std::size_t d) {
    begins_[d] = reinterpret_cast<RowT*>(streams_.open(d));
    combiner_.set_run(d, begins_[d], begins_[d] + batch_rows_);
  }

  WriteCombiner<RowT> combiner_;
  RowRouter route_;
  std::size_t batch_rows_;
  Streams& streams_;
  std::vector<RowT*> begins_;
};

// The same for rows of any width (a multiple of 8 bytes), copied one by one.
template <class Streams>
class CopyPartitioner {
 public:
  CopyPartitioner(int ranks, std::size_t batch_rows, std::size_t row_bytes, Streams& streams)
      : route_(ranks),
        batch_rows_(batch_rows),
        row_bytes_(row_bytes),
        streams_(streams),
        cursor_(static_cast<std::size_t>(ranks)),
        filled_(static_cast<std::size_t>(ranks), 0) {}

  void start() {
    for (std::size_t d = 0; d < cursor_.size(); ++d) cursor_[d] = streams_.open(d);
  }

  void push(const std::byte* in, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i, in += row_bytes_) {
      const std::size_t d = route_(row_key(in));
      std::memcpy(cursor_[d], in, row_bytes_);
      cursor_[d] += row_bytes_;
      if (++filled_[d] == batch_rows_) {
        streams_.ship(d, batch_rows_, false);
        cursor_[d] = streams_.open(d);
        filled_[d] = 0;
      }
    }
  }

  void finish() {
    for (std::size_t d = 0; d < cursor_.size(); ++d) streams_.ship(d, filled_[d], true);
  }

 private:
  RowRouter route_;
  std::size_t batch_rows_;
  std::size_t row_bytes_;
  Streams& streams_;
  std::vector<std::byte*> cursor_;
  std::vector<std::size_t> filled_;
};

}  // namespace hpcdb
