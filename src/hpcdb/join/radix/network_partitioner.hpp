#pragma once
// The network-partitioning pass of one worker thread: radix-partitions its
// section of a relation on the low key bits, compressing tuples on the way,
// and ships every partition to its owner while it keeps partitioning.
//
// A partition owned by this rank or a co-located rank is written straight
// into the owner's window (shared memory) at the worker's exclusive offset.
// Any other partition is staged in a ring of fixed-size send buffers; a full
// buffer leaves with one one-sided put to its exact remote offset, and the
// ring's next buffer is reused only once its own earlier put has completed.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/net/one_sided_writer.hpp"

namespace hpcdb {

template <class Stored>
struct PartitionTarget {
  Stored* direct = nullptr;    // non-null: write here (own or co-located window)
  int rank = -1;               // otherwise: put to this rank
  std::uint64_t disp_bytes = 0;  // at this byte displacement of its window
};

struct NetworkPassStats {
  std::uint64_t puts = 0;
  std::uint64_t bytes_put = 0;
  double buffer_wait_seconds = 0;  // waiting for a send buffer to become reusable
};

template <class Format>
class NetworkPartitioner {
 public:
  using Stored = typename Format::Stored;

  // `buffer_items` is a multiple of the cache line's item count.
  NetworkPartitioner(std::size_t partitions, std::size_t buffer_items, unsigned buffers_per_partition, Stored* buffers)
      : combiner_(partitions),
        buffer_items_(buffer_items),
        ring_size_(buffers_per_partition),
        buffers_(buffers),
        rings_(partitions) {}

  // Partitions in[0, n) by key & (partitions - 1). counts[p] must be the exact
  // number of tuples of partition p in the input.
  void run(const Tuple* in, std::size_t n, Format format, const std::vector<PartitionTarget<Stored>>& targets,
           const std::uint64_t* counts, OneSidedWriter* writer, NetworkPassStats& stats) {
    start(targets, counts);
    push(in, n, format, writer, stats);
    finish(writer, stats);
  }

  // run() in steps, for input that arrives in pieces: start() with the
  // targets and exact counts of the first piece, push() it, extend() by the
  // counts of each next piece whose tuples go right after the earlier ones
  // in every partition (the next chunk of the same fragment) and push() it,
  // then finish(). Continuing a pass, rather than a new one per piece, writes
  // no partly filled cache lines at the pieces' borders.
  void start(const std::vector<PartitionTarget<Stored>>& targets, const std::uint64_t* counts) {
    targets_ = targets;
    pending_.assign(counts, counts + combiner_.partitions());
    for (std::size_t p = 0; p < combiner_.partitions(); ++p) {
      Ring& ring = rings_[p];
      ring.sent = 0;
      ring.current = 0;
      if (targets_[p].direct != nullptr) {
        combiner_.set_run(p, targets_[p].direct, targets_[p].direct + counts[p]);
      } else {
        combiner_.set_run(p, buffer(p, 0), buffer(p, 0) + buffer_items_);
      }
    }
  }

  void extend(const std::uint64_t* counts) {
    for (std::size_t p = 0; p < combiner_.partitions(); ++p) {
      pending_[p] += counts[p];
      if (targets_[p].direct != nullptr) combiner_.extend_run(p, targets_[p].direct + pending_[p]);
    }
  }

  void push(const Tuple* in, std::size_t n, Format format, OneSidedWriter* writer, NetworkPassStats& stats) {
    const std::uint64_t mask = combiner_.partitions() - 1;
    auto ship_full_buffer = [&](std::size_t p) {
      if (targets_[p].direct == nullptr) send_full_buffer(p, targets_[p], writer, stats);
    };
    std::size_t i = 0;
    for (; i + 2 <= n; i += 2) {
      const Tuple a = in[i], b = in[i + 1];
      combiner_.push_pair(a.key & mask, format.encode(a), b.key & mask, format.encode(b), ship_full_buffer);
    }
    if (i < n) {
      const std::size_t p = in[i].key & mask;
      if (combiner_.push(p, format.encode(in[i]))) ship_full_buffer(p);
    }
  }

  void finish(OneSidedWriter* writer, NetworkPassStats& stats) {
    for (std::size_t p = 0; p < combiner_.partitions(); ++p) {
      if (pending_[p] == 0) continue;
      Stored* end = combiner_.drain(p);
      if (targets_[p].direct != nullptr) continue;
      Stored* begin = buffer(p, rings_[p].current);
      if (end > begin) send(p, begin, static_cast<std::size_t>(end - begin), targets_[p], writer, stats);
    }
    WriteCombiner<Stored>::publish();
    if (writer == nullptr) return;  // nothing was put
    for (Ring& ring : rings_) {
      for (MPI_Request& request : ring.requests) writer->wait(request);
    }
  }

 private:
  struct Ring {
    std::vector<MPI_Request> requests;
    unsigned current = 0;
    std::uint64_t sent = 0;  // items already put
  };

  Stored* buffer(std::size_t p, unsigned slot) const {
    return buffers_ + (p * ring_size_ + slot) * buffer_items_;
  }

  void send(std::size_t p, const Stored* data, std::size_t items, const PartitionTarget<Stored>& target,
            OneSidedWriter* writer, NetworkPassStats& stats) {
    if (writer == nullptr) throw Error("a partition needs a one-sided write but no window is open");
    Ring& ring = rings_[p];
    if (ring.requests.empty()) ring.requests.assign(ring_size_, MPI_REQUEST_NULL);
    WriteCombiner<Stored>::publish();
    const std::size_t bytes = items * sizeof(Stored);
    ring.requests[ring.current] = writer->put(data, bytes, target.rank, target.disp_bytes + ring.sent * sizeof(Stored));
    ring.sent += items;
    ++stats.puts;
    stats.bytes_put += bytes;
  }

  void send_full_buffer(std::size_t p, const PartitionTarget<Stored>& target, OneSidedWriter* writer,
                        NetworkPassStats& stats) {
    Ring& ring = rings_[p];
    send(p, buffer(p, ring.current), buffer_items_, target, writer, stats);
    ring.current = (ring.current + 1) % ring_size_;
    MPI_Request& next = ring.requests[ring.current];
    if (next != MPI_REQUEST_NULL) {
      Stopwatch waited;
      writer->wait(next);
      stats.buffer_wait_seconds += waited.seconds();
    }
    Stored* begin = buffer(p, ring.current);
    combiner_.set_run(p, begin, begin + buffer_items_);
  }

  WriteCombiner<Stored> combiner_;
  std::vector<PartitionTarget<Stored>> targets_;  // of the current pass
  std::vector<std::uint64_t> pending_;           // items of the current pass, per partition
  std::size_t buffer_items_;
  unsigned ring_size_;
  Stored* buffers_;
  std::vector<Ring> rings_;
};

}  // namespace hpcdb
