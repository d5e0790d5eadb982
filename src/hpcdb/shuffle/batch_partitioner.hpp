#pragma once
// The sending half of a streaming shuffle on one worker thread: routes each
// row to its destination rank and appends it to the batch buffer open for
// that destination; a full buffer is shipped and the next one opened.
//
// `Streams` supplies the buffers: open(dest) returns room for a batch's rows
// (cache-line aligned), ship(dest, rows, last) sends the open buffer with
// `rows` rows, `last` on the stream's final batch.
//
// Two ways to write rows, chosen by fan-out (use_write_combining()):
// - DirectPartitioner: each row is stored at its destination's cursor. With
//   few destinations, the open batch lines of all of them stay in L1, so the
//   cache itself combines the writes; the batch buffers (a few per
//   destination, reused) stay in cache for the receiver to read.
// - CombiningPartitioner: software write-combining (kernels/write_combiner.hpp),
//   a staging line per destination streamed out with non-temporal stores,
//   for fan-outs too wide for the cache to hold every destination's line.
// Measured on one core of the 2-core VM, 16M 16-byte rows into rings of
// 4 x 256 KiB per destination: direct 0.07-0.14 s against 0.34-0.73 s
// combining for 2 and 4 destinations, 0.06 against 0.14 s for 16, about
// equal (0.21-0.27 s) for 64 and 256. Write-combining pays off for large
// radix fan-outs (2^10-2^11 in the joins), not for a handful of ranks.
#include <cstddef>
#include <cstring>
#include <vector>

#include "hpcdb/kernels/row.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/shuffle/row_router.hpp"
#include "hpcdb/shuffle/shuffle_config.hpp"

namespace hpcdb {

template <class RowT, class Streams>
class CombiningPartitioner {
 public:
  CombiningPartitioner(int ranks, std::size_t batch_rows, Streams& streams)
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

// Destinations up to which rows are stored directly by default (see above).
inline constexpr int kDirectFanoutLimit = 64;
inline bool use_write_combining(const ShuffleConfig& config, int ranks) {
  if (kCacheLine % config.row_bytes != 0) return false;
  if (config.row_writes == RowWrites::automatic) return ranks > kDirectFanoutLimit;
  return config.row_writes == RowWrites::combining;
}

// Copies a row of a width fixed at compile time (Row<W>), or of a width given at run time.
template <class RowT>
struct FixedRowCopy {
  std::size_t bytes() const { return sizeof(RowT); }
  void operator()(std::byte* to, const std::byte* from) const {
    *reinterpret_cast<RowT*>(to) = *reinterpret_cast<const RowT*>(from);
  }
};
struct RowCopy {
  std::size_t row_bytes;
  std::size_t bytes() const { return row_bytes; }
  void operator()(std::byte* to, const std::byte* from) const { std::memcpy(to, from, row_bytes); }
};

template <class Copy, class Streams>
class DirectPartitioner {
 public:
  DirectPartitioner(int ranks, std::size_t batch_rows, Copy copy, Streams& streams)
      : route_(ranks),
        batch_rows_(batch_rows),
        copy_(copy),
        streams_(streams),
        cursor_(static_cast<std::size_t>(ranks)),
        left_(static_cast<std::size_t>(ranks), 0) {}

  void start() {
    for (std::size_t d = 0; d < cursor_.size(); ++d) open(d);
  }

  void push(const std::byte* in, std::size_t n) {
    const std::size_t width = copy_.bytes();
    for (std::size_t i = 0; i < n; ++i, in += width) {
      const std::size_t d = route_(row_key(in));
      copy_(cursor_[d], in);
      cursor_[d] += width;
      if (--left_[d] == 0) {
        streams_.ship(d, batch_rows_, false);
        open(d);
      }
    }
  }

  void finish() {
    for (std::size_t d = 0; d < cursor_.size(); ++d) streams_.ship(d, batch_rows_ - left_[d], true);
  }

 private:
  void open(std::size_t d) {
    cursor_[d] = streams_.open(d);
    left_[d] = batch_rows_;
  }

  RowRouter route_;
  std::size_t batch_rows_;
  Copy copy_;
  Streams& streams_;
  std::vector<std::byte*> cursor_;
  std::vector<std::size_t> left_;
};

}  // namespace hpcdb
