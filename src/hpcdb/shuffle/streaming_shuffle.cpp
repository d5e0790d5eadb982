#include "hpcdb/shuffle/streaming_shuffle.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/shuffle/batch_partitioner.hpp"
#include "hpcdb/shuffle/idle_backoff.hpp"
#include "hpcdb/shuffle/stream_tracker.hpp"

namespace hpcdb {

// One worker thread's part of one exchange: the Streams of its partitioner
// (open/ship) and the BatchSink its transport delivers to.
class StreamingShuffle::Worker final : public BatchSink {
 public:
  Worker(StreamingShuffle& shuffle, unsigned index, ShuffleConsumer& consumer,
         std::vector<std::atomic<unsigned>>& completed_streams)
      : shuffle_(shuffle),
        config_(shuffle.config_),
        transport_(*shuffle.transport_),
        index_(index),
        me_(shuffle.cluster_.rank()),
        ranks_(shuffle.cluster_.size()),
        consumer_(consumer),
        completed_streams_(completed_streams),
        tracker_(ranks_),
        open_(static_cast<std::size_t>(ranks_)),
        next_seq_(static_cast<std::size_t>(ranks_), 0),
        held_(static_cast<std::size_t>(ranks_)) {}

  // Sends rows[0, n) and receives until every stream of this worker is complete.
  void run(const std::byte* rows, std::size_t n) {
    transport_.start(index_);
    Stopwatch watch;
    const std::size_t batch = rows_per_batch(config_);
    if (use_write_combining(config_, ranks_)) {
      switch (config_.row_bytes) {
        case 16: partition(CombiningPartitioner<Row<2>, Worker>(ranks_, batch, *this), rows, n); break;
        case 32: partition(CombiningPartitioner<Row<4>, Worker>(ranks_, batch, *this), rows, n); break;
        default: partition(CombiningPartitioner<Row<8>, Worker>(ranks_, batch, *this), rows, n); break;
      }
    } else {
      switch (config_.row_bytes) {
        case 16: partition(DirectPartitioner<FixedRowCopy<Row<2>>, Worker>(ranks_, batch, {}, *this), rows, n); break;
        case 32: partition(DirectPartitioner<FixedRowCopy<Row<4>>, Worker>(ranks_, batch, {}, *this), rows, n); break;
        case 64: partition(DirectPartitioner<FixedRowCopy<Row<8>>, Worker>(ranks_, batch, {}, *this), rows, n); break;
        default:
          partition(DirectPartitioner<RowCopy, Worker>(ranks_, batch, RowCopy{config_.row_bytes}, *this), rows, n);
          break;
      }
    }
    Stopwatch drain;
    IdleBackoff backoff;
    while (!tracker_.all_complete()) {
      if (transport_.poll(index_, *this)) {
        backoff.busy();
      } else {
        backoff.idle();
      }
    }
    transport_.finish(index_, *this);
    stats_.drain_seconds = drain.seconds();
  }

  const ShuffleRankStats& stats() const { return stats_; }

  // --- Streams (called by the partitioner)

  std::byte* open(std::size_t dest) {
    if (static_cast<int>(dest) == me_) return own_rows();
    Stopwatch waited;
    open_[dest] = transport_.acquire(index_, static_cast<int>(dest), *this);
    stats_.credit_wait_seconds += waited.seconds();
    open_[dest].header->seq = next_seq_[dest]++;
    return open_[dest].rows;
  }

  void ship(std::size_t dest, std::size_t rows, bool last) {
    if (static_cast<int>(dest) == me_) {
      deliver_own(rows, last);
      return;
    }
    BatchBuffer& buffer = open_[dest];
    BatchHeader& h = *buffer.header;
    h.magic = kBatchMagic;
    h.version = kBatchVersion;
    h.flags = last ? kLastBatch : 0;
    h.source = static_cast<std::uint32_t>(me_);
    h.stream = index_;
    h.row_bytes = config_.row_bytes;
    h.rows = rows;
    const std::uint64_t bytes = kBatchHeaderBytes + rows * config_.row_bytes;
    stats_.bytes_sent += bytes;
    if (shuffle_.cluster_.node_rank_of(static_cast<int>(dest)) < 0) stats_.bytes_sent_off_node += bytes;
    ++stats_.messages_sent;
    if (!config_.reorder_batches) {
      transport_.send(index_, static_cast<int>(dest), buffer);
      return;
    }
    // Testing aid: hold every other batch back until the next one is sent.
    std::optional<BatchBuffer>& held = held_[dest];
    if (!held && !last && config_.buffers >= 2) {
      held = buffer;
      return;
    }
    transport_.send(index_, static_cast<int>(dest), buffer);
    if (held) {
      transport_.send(index_, static_cast<int>(dest), *held);
      held.reset();
    }
  }

  // --- BatchSink (called by the transport)

  void deliver(unsigned worker, const BatchHeader& header, const std::byte* rows) override {
    check_header(header, ranks_, config_, 0);
    if (header.stream != worker) {
      throw Error("a batch of stream " + std::to_string(header.stream) + " reached worker " + std::to_string(worker));
    }
    const int source = static_cast<int>(header.source);
    if (header.rows > 0) consumer_.consume(index_, source, rows, header.rows);
    stats_.rows_received += header.rows;
    stats_.bytes_received += kBatchHeaderBytes + header.payload_bytes();
    if (tracker_.arrived(source, header.seq, header.last())) stream_complete(source);
  }

 private:
  template <class Partitioner>
  void partition(Partitioner partitioner, const std::byte* rows, std::size_t n) {
    partitioner.start();
    // Chunks of about 256 KiB of input, with the receiving side served in between.
    const std::size_t chunk = std::max<std::size_t>(1, (256 * 1024) / config_.row_bytes);
    for (std::size_t i = 0; i < n; i += chunk) {
      partitioner.push(rows + i * config_.row_bytes, std::min(chunk, n - i));
      transport_.poll(index_, *this);
    }
    partitioner.finish();
  }

  std::byte* own_rows() {
    return shuffle_.own_buffers_[index_].data() + kBatchHeaderBytes;
  }

  void deliver_own(std::size_t rows, bool last) {
    if (rows > 0) consumer_.consume(index_, me_, own_rows(), rows);
    stats_.rows_received += rows;
    if (tracker_.arrived(me_, own_seq_++, last)) stream_complete(me_);
  }

  void stream_complete(int source) {
    const unsigned done = completed_streams_[static_cast<std::size_t>(source)].fetch_add(1, std::memory_order_acq_rel) + 1;
    if (done == config_.threads) consumer_.end_of_stream(source);
  }

  StreamingShuffle& shuffle_;
  const ShuffleConfig& config_;
  StreamTransport& transport_;
  unsigned index_;
  int me_;
  int ranks_;
  ShuffleConsumer& consumer_;
  std::vector<std::atomic<unsigned>>& completed_streams_;
  StreamTracker tracker_;
  std::vector<BatchBuffer> open_;
  std::vector<std::uint64_t> next_seq_;
  std::vector<std::optional<BatchBuffer>> held_;
  std::uint64_t own_seq_ = 0;
  ShuffleRankStats stats_;
};

StreamingShuffle::StreamingShuffle(const Cluster& cluster, const ShuffleConfig& config,
                                   std::unique_ptr<StreamTransport> transport)
    : cluster_(cluster), config_(config), transport_(std::move(transport)) {
  for (unsigned t = 0; t < config.threads; ++t) own_buffers_.emplace_back(config.buffer_bytes, Prefault::yes);
}

StreamingShuffle::~StreamingShuffle() = default;

ShuffleResources StreamingShuffle::resources() const {
  const TransportResources r = transport_->resources();
  return {r.registered_bytes, r.endpoints};
}

ShuffleRunStats StreamingShuffle::run(RowSpan input, ShuffleConsumer& consumer) {
  const unsigned threads = config_.threads;
  std::vector<std::atomic<unsigned>> completed_streams(static_cast<std::size_t>(cluster_.size()));
  std::vector<ShuffleRankStats> worker_stats(threads);
  MPI_Barrier(cluster_.world());
  const double start = MPI_Wtime();
  run_on_threads(threads, [&](unsigned t) {
    const std::size_t begin = split_point(input.rows, threads, t);
    const std::size_t end = split_point(input.rows, threads, t + 1);
    Worker worker(*this, t, consumer, completed_streams);
    worker.run(input.data + begin * config_.row_bytes, end - begin);
    worker_stats[t] = worker.stats();
  });
  ShuffleRunStats result;
  ShuffleRankStats& mine = result.rank;
  mine.seconds = MPI_Wtime() - start;
  mine.rows_in = input.rows;
  for (const ShuffleRankStats& w : worker_stats) {
    mine.rows_received += w.rows_received;
    mine.bytes_sent += w.bytes_sent;
    mine.bytes_sent_off_node += w.bytes_sent_off_node;
    mine.bytes_received += w.bytes_received;
    mine.messages_sent += w.messages_sent;
    mine.credit_wait_seconds = std::max(mine.credit_wait_seconds, w.credit_wait_seconds);
    mine.drain_seconds = std::max(mine.drain_seconds, w.drain_seconds);
  }
  mine.phases = {{"exchange", mine.seconds}, {"credit_wait", mine.credit_wait_seconds}, {"drain", mine.drain_seconds}};
  result.seconds = allreduce(mine.seconds, MPI_MAX, cluster_.world());
  return result;
}

}  // namespace hpcdb
