#include "hpcdb/shuffle/alltoallv_shuffle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/phase_clock.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/data/row_workload.hpp"
#include "hpcdb/kernels/row.hpp"
#include "hpcdb/kernels/write_combiner.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/shuffle/batch_partitioner.hpp"
#include "hpcdb/shuffle/row_router.hpp"

namespace hpcdb {
namespace {

constexpr double kReceiveSlack = 1.25;  // receive capacity over the mean share

std::vector<std::uint64_t> exclusive_prefix(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> offsets(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
  return offsets;
}

// Writes rows to their exact places: destination d's rows of this thread
// go to out + starts[d] rows, in input order.
template <class RowT>
void scatter_combined(const std::byte* bytes, std::size_t n, const RowRouter& route, std::byte* out,
                      const std::vector<std::uint64_t>& starts, const std::vector<std::uint64_t>& counts) {
  WriteCombiner<RowT> combiner(starts.size());
  auto* rows_out = reinterpret_cast<RowT*>(out);
  for (std::size_t d = 0; d < starts.size(); ++d) {
    combiner.set_run(d, rows_out + starts[d], rows_out + starts[d] + counts[d]);
  }
  const auto* in = reinterpret_cast<const RowT*>(bytes);
  auto exhausted = [](std::size_t) {};  // exact counts: a run ends with its last row
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) combiner.push_pair(route(in[i].key()), in[i], route(in[i + 1].key()), in[i + 1], exhausted);
  if (i < n) combiner.push(route(in[i].key()), in[i]);
  for (std::size_t d = 0; d < starts.size(); ++d) combiner.drain(d);
  WriteCombiner<RowT>::publish();
}

// The same by direct stores (few destinations: batch_partitioner.hpp).
template <class Copy>
void scatter_direct(const std::byte* in, std::size_t n, Copy copy, const RowRouter& route, std::byte* out,
                    const std::vector<std::uint64_t>& starts) {
  const std::size_t width = copy.bytes();
  std::vector<std::byte*> cursor(starts.size());
  for (std::size_t d = 0; d < starts.size(); ++d) cursor[d] = out + starts[d] * width;
  for (std::size_t i = 0; i < n; ++i, in += width) {
    const std::size_t d = route(row_key(in));
    copy(cursor[d], in);
    cursor[d] += width;
  }
}

}  // namespace

AlltoallvShuffle::AlltoallvShuffle(const Cluster& cluster, const ShuffleConfig& config, std::uint64_t expected_rows)
    : cluster_(cluster), config_(config) {
  validate(config);
  MPI_Type_contiguous(static_cast<int>(config.row_bytes), MPI_BYTE, &row_type_);
  MPI_Type_commit(&row_type_);
  const auto share = static_cast<double>(expected_rows) / cluster.size();
  const std::uint64_t own = rank_rows(expected_rows, cluster.rank(), cluster.size()).count;
  send_ = AlignedArray<std::byte>(std::max<std::uint64_t>(own, 1) * config.row_bytes, Prefault::yes);
  const auto receive_rows = static_cast<std::uint64_t>(std::min(share * kReceiveSlack, static_cast<double>(expected_rows)));
  receive_ = AlignedArray<std::byte>(std::max<std::uint64_t>(receive_rows, 1) * config.row_bytes, Prefault::yes);
}

AlltoallvShuffle::~AlltoallvShuffle() {
  if (row_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&row_type_);
}

ShuffleResources AlltoallvShuffle::resources() const {
  return {send_.capacity() + receive_.capacity(), static_cast<std::uint64_t>(cluster_.size() - 1)};
}

std::vector<std::vector<std::uint64_t>> AlltoallvShuffle::count(RowSpan input) const {
  const unsigned threads = config_.threads;
  const std::size_t ranks = static_cast<std::size_t>(cluster_.size());
  std::vector<std::vector<std::uint64_t>> counts(threads, std::vector<std::uint64_t>(ranks, 0));
  run_on_threads(threads, [&](unsigned t) {
    const RowRouter route(cluster_.size());
    const std::size_t begin = split_point(input.rows, threads, t);
    const std::size_t end = split_point(input.rows, threads, t + 1);
    std::vector<std::uint64_t> mine(ranks, 0);
    for (std::size_t i = begin; i < end; ++i) ++mine[route(row_key(input.data + i * config_.row_bytes))];
    counts[t] = std::move(mine);
  });
  return counts;
}

void AlltoallvShuffle::scatter(RowSpan input, const std::vector<std::vector<std::uint64_t>>& counts,
                               const std::vector<std::uint64_t>& send_offsets) {
  const unsigned threads = config_.threads;
  const std::size_t ranks = send_offsets.size();
  run_on_threads(threads, [&](unsigned t) {
    const RowRouter route(cluster_.size());
    std::vector<std::uint64_t> starts(ranks);
    for (std::size_t d = 0; d < ranks; ++d) {
      starts[d] = send_offsets[d];
      for (unsigned u = 0; u < t; ++u) starts[d] += counts[u][d];
    }
    const std::size_t begin = split_point(input.rows, threads, t);
    const std::size_t end = split_point(input.rows, threads, t + 1);
    const std::byte* in = input.data + begin * config_.row_bytes;
    std::byte* out = send_.data();
    if (use_write_combining(config_, cluster_.size())) {
      switch (config_.row_bytes) {
        case 16: scatter_combined<Row<2>>(in, end - begin, route, out, starts, counts[t]); break;
        case 32: scatter_combined<Row<4>>(in, end - begin, route, out, starts, counts[t]); break;
        default: scatter_combined<Row<8>>(in, end - begin, route, out, starts, counts[t]); break;
      }
      return;
    }
    switch (config_.row_bytes) {
      case 16: scatter_direct(in, end - begin, FixedRowCopy<Row<2>>{}, route, out, starts); break;
      case 32: scatter_direct(in, end - begin, FixedRowCopy<Row<4>>{}, route, out, starts); break;
      case 64: scatter_direct(in, end - begin, FixedRowCopy<Row<8>>{}, route, out, starts); break;
      default: scatter_direct(in, end - begin, RowCopy{config_.row_bytes}, route, out, starts); break;
    }
  });
}

void AlltoallvShuffle::exchange(const std::vector<std::uint64_t>& send_counts,
                                const std::vector<std::uint64_t>& send_offsets,
                                const std::vector<std::uint64_t>& receive_counts,
                                const std::vector<std::uint64_t>& receive_offsets) {
  const std::size_t ranks = send_counts.size();
  std::vector<int> sc(ranks), sd(ranks), rc(ranks), rd(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    // MPI counts and displacements are ints (in rows here).
    for (std::uint64_t v : {send_counts[r], send_offsets[r], receive_counts[r], receive_offsets[r]}) {
      if (v > static_cast<std::uint64_t>(INT_MAX)) {
        throw Error(fmt::format("mpi-alltoallv moves at most {} rows per rank (MPI counts are ints); use more ranks "
                                "or a streaming design",
                                INT_MAX));
      }
    }
    sc[r] = static_cast<int>(send_counts[r]);
    sd[r] = static_cast<int>(send_offsets[r]);
    rc[r] = static_cast<int>(receive_counts[r]);
    rd[r] = static_cast<int>(receive_offsets[r]);
  }
  MPI_Alltoallv(send_.data(), sc.data(), sd.data(), row_type_, receive_.data(), rc.data(), rd.data(), row_type_,
                cluster_.world());
}

void AlltoallvShuffle::consume(const std::vector<std::uint64_t>& receive_counts,
                               const std::vector<std::uint64_t>& receive_offsets, ShuffleConsumer& consumer) const {
  const unsigned threads = config_.threads;
  run_on_threads(threads, [&](unsigned t) {
    for (std::size_t s = 0; s < receive_counts.size(); ++s) {
      const std::size_t begin = split_point(receive_counts[s], threads, t);
      const std::size_t end = split_point(receive_counts[s], threads, t + 1);
      if (end > begin) {
        consumer.consume(t, static_cast<int>(s), receive_.data() + (receive_offsets[s] + begin) * config_.row_bytes,
                         end - begin);
      }
    }
  });
  for (std::size_t s = 0; s < receive_counts.size(); ++s) consumer.end_of_stream(static_cast<int>(s));
}

ShuffleRunStats AlltoallvShuffle::run(RowSpan input, ShuffleConsumer& consumer) {
  const MPI_Comm world = cluster_.world();
  const auto ranks = static_cast<std::size_t>(cluster_.size());
  const auto me = static_cast<std::size_t>(cluster_.rank());
  if (input.rows * config_.row_bytes > send_.capacity()) {
    send_ = AlignedArray<std::byte>(input.rows * config_.row_bytes, Prefault::no);
  }
  PhaseClock clock;
  MPI_Barrier(world);
  const double start = MPI_Wtime();

  clock.start("histogram");
  const std::vector<std::vector<std::uint64_t>> counts = count(input);
  std::vector<std::uint64_t> send_counts(ranks, 0);
  for (const auto& c : counts)
    for (std::size_t d = 0; d < ranks; ++d) send_counts[d] += c[d];
  std::vector<std::uint64_t> receive_counts(ranks, 0);
  MPI_Alltoall(send_counts.data(), 1, MPI_UINT64_T, receive_counts.data(), 1, MPI_UINT64_T, world);
  const std::vector<std::uint64_t> send_offsets = exclusive_prefix(send_counts);
  const std::vector<std::uint64_t> receive_offsets = exclusive_prefix(receive_counts);
  std::uint64_t received_rows = 0;
  for (std::uint64_t c : receive_counts) received_rows += c;

  clock.start("partition");
  scatter(input, counts, send_offsets);
  if (received_rows * config_.row_bytes > receive_.capacity()) {
    receive_ = AlignedArray<std::byte>(received_rows * config_.row_bytes, Prefault::no);
  }

  clock.start("exchange");
  exchange(send_counts, send_offsets, receive_counts, receive_offsets);

  clock.start("consume");
  consume(receive_counts, receive_offsets, consumer);
  clock.stop();

  ShuffleRunStats result;
  ShuffleRankStats& mine = result.rank;
  mine.seconds = MPI_Wtime() - start;
  mine.rows_in = input.rows;
  mine.rows_received = received_rows;
  for (std::size_t r = 0; r < ranks; ++r) {
    if (r == me) continue;
    const std::uint64_t sent = send_counts[r] * config_.row_bytes;
    mine.bytes_sent += sent;
    if (cluster_.node_rank_of(static_cast<int>(r)) < 0) mine.bytes_sent_off_node += sent;
    mine.bytes_received += receive_counts[r] * config_.row_bytes;
    if (send_counts[r] > 0) ++mine.messages_sent;
  }
  mine.phases = clock.phases();
  result.seconds = allreduce(mine.seconds, MPI_MAX, world);
  return result;
}

}  // namespace hpcdb
