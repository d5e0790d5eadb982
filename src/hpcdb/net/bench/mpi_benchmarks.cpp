#include "hpcdb/net/bench/mpi_benchmarks.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {
namespace {

constexpr int kDataTag = 1, kAckTag = 2, kEndTag = 3;

void need_two_ranks(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  if (size < 2) throw UsageError("netbench needs at least 2 ranks");
}

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// Rank 0 sends windows to `targets` (one buffer, reused) and waits for each
// target's acknowledgement after every window, as long as more(it).
template <class More>
Throughput send_windows(MPI_Comm comm, const std::vector<int>& targets, const WindowPlan& plan, int tag_offset, More&& more) {
  AlignedArray<std::byte> buffer(std::max<std::size_t>(plan.bytes, 1));
  std::vector<MPI_Request> requests(plan.window * targets.size());
  char ack = 0;
  Throughput t;
  Stopwatch watch;
  for (unsigned it = 0; more(it); ++it) {
    if (it == plan.skip) watch.restart();
    std::size_t r = 0;
    for (unsigned k = 0; k < plan.window; ++k) {
      for (int target : targets) {
        MPI_Isend(buffer.data(), static_cast<int>(plan.bytes), MPI_BYTE, target, kDataTag + tag_offset, comm, &requests[r++]);
      }
    }
    MPI_Waitall(static_cast<int>(r), requests.data(), MPI_STATUSES_IGNORE);
    for (int target : targets) MPI_Recv(&ack, 1, MPI_CHAR, target, kAckTag + tag_offset, comm, MPI_STATUS_IGNORE);
    if (it >= plan.skip) {
      t.messages += plan.window;
      t.bytes += static_cast<std::uint64_t>(plan.window) * plan.bytes;
    }
  }
  t.seconds = watch.seconds();
  return t;
}

// The receiving side: windows of receives posted ahead, then an acknowledgement.
void receive_windows(MPI_Comm comm, const WindowPlan& plan, unsigned windows) {
  AlignedArray<std::byte> buffer(std::max<std::size_t>(plan.bytes, 1));
  std::vector<MPI_Request> requests(plan.window);
  const char ack = 1;
  for (unsigned it = 0; it < windows; ++it) {
    for (unsigned k = 0; k < plan.window; ++k) {
      MPI_Irecv(buffer.data(), static_cast<int>(plan.bytes), MPI_BYTE, 0, kDataTag, comm, &requests[k]);
    }
    MPI_Waitall(static_cast<int>(plan.window), requests.data(), MPI_STATUSES_IGNORE);
    MPI_Send(&ack, 1, MPI_CHAR, 0, kAckTag, comm);
  }
}

}  // namespace

Throughput mpi_bandwidth(MPI_Comm comm, const WindowPlan& plan) {
  need_two_ranks(comm);
  const unsigned windows = plan.skip + plan.iterations;
  Throughput t;
  MPI_Barrier(comm);
  if (rank_of(comm) == 0) {
    t = send_windows(comm, {1}, plan, 0, [&](unsigned it) { return it < windows; });
  } else if (rank_of(comm) == 1) {
    receive_windows(comm, plan, windows);
  }
  MPI_Barrier(comm);
  return t;
}

PingPong mpi_ping_pong(MPI_Comm comm, std::size_t bytes, unsigned iterations, unsigned skip) {
  need_two_ranks(comm);
  AlignedArray<std::byte> buffer(std::max<std::size_t>(bytes, 1));
  const int rank = rank_of(comm);
  const int n = static_cast<int>(bytes);
  MPI_Barrier(comm);
  Stopwatch watch;
  for (unsigned it = 0; it < skip + iterations; ++it) {
    if (it == skip) watch.restart();
    if (rank == 0) {
      MPI_Send(buffer.data(), n, MPI_BYTE, 1, kDataTag, comm);
      MPI_Recv(buffer.data(), n, MPI_BYTE, 1, kDataTag, comm, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buffer.data(), n, MPI_BYTE, 0, kDataTag, comm, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), n, MPI_BYTE, 0, kDataTag, comm);
    }
  }
  PingPong p;
  p.iterations = iterations;
  p.half_round_trip = watch.seconds() / iterations / 2;
  MPI_Barrier(comm);
  return p;
}

MixedStreams mpi_mixed_streams(MPI_Comm comm, std::size_t small, std::size_t large, unsigned window, double seconds) {
  need_two_ranks(comm);
  MixedStreams result;
  const int rank = rank_of(comm);
  // Stream s (0 small, 1 large) uses tags offset by 10 * s.
  for (int phase = 0; phase < 3; ++phase) {
    const bool run[2] = {phase != 2, phase != 1};
    MPI_Barrier(comm);
    if (rank == 0) {
      Stopwatch clock;
      Throughput t[2];
      auto stream = [&](int s) {
        WindowPlan plan{s == 0 ? small : large, window, 0, 1};
        t[s] = send_windows(comm, {1}, plan, 10 * s, [&](unsigned) { return clock.seconds() < seconds; });
        const char end = 0;
        MPI_Send(&end, 1, MPI_CHAR, 1, kEndTag, comm);
      };
      std::thread small_thread;
      if (run[0]) small_thread = std::thread(stream, 0);
      if (run[1]) stream(1);
      if (small_thread.joinable()) small_thread.join();
      if (phase == 0) {
        result.small_together = t[0];
        result.large_together = t[1];
      } else if (phase == 1) {
        result.small_alone = t[0];
      } else {
        result.large_alone = t[1];
      }
    } else if (rank == 1) {
      // One receiving thread: whatever arrives, counted per stream.
      AlignedArray<std::byte> buffer(std::max(small, large) + 1);
      unsigned received[2] = {0, 0};
      int ends = 0;
      const int streams = (run[0] ? 1 : 0) + (run[1] ? 1 : 0);
      const char ack = 1;
      while (ends < streams) {
        MPI_Status status;
        MPI_Recv(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE, 0, MPI_ANY_TAG, comm, &status);
        if (status.MPI_TAG == kEndTag) {
          ++ends;
          continue;
        }
        const int s = status.MPI_TAG == kDataTag ? 0 : 1;
        if (++received[s] % window == 0) MPI_Send(&ack, 1, MPI_CHAR, 0, kAckTag + 10 * s, comm);
      }
    }
  }
  MPI_Barrier(comm);
  return result;
}

Throughput mpi_broadcast(MPI_Comm comm, int receivers, const WindowPlan& plan) {
  const int rank = rank_of(comm);
  MPI_Comm group;
  MPI_Comm_split(comm, rank <= receivers ? 0 : MPI_UNDEFINED, rank, &group);
  Throughput t;
  if (group != MPI_COMM_NULL) {
    AlignedArray<std::byte> buffer(std::max<std::size_t>(plan.bytes, 1));
    const unsigned total = (plan.skip + plan.iterations) * plan.window;
    MPI_Barrier(group);
    Stopwatch watch;
    for (unsigned k = 0; k < total; ++k) {
      if (k == plan.skip * plan.window) watch.restart();
      MPI_Bcast(buffer.data(), static_cast<int>(plan.bytes), MPI_BYTE, 0, group);
    }
    MPI_Barrier(group);  // every receiver has every message
    t.seconds = watch.seconds();
    t.messages = static_cast<std::uint64_t>(plan.iterations) * plan.window;
    t.bytes = t.messages * plan.bytes;
    MPI_Comm_free(&group);
  }
  MPI_Barrier(comm);
  return t;
}

Throughput mpi_multiple_sends(MPI_Comm comm, int receivers, const WindowPlan& plan) {
  const int rank = rank_of(comm);
  const unsigned windows = plan.skip + plan.iterations;
  Throughput t;
  std::vector<int> targets;
  for (int r = 1; r <= receivers; ++r) targets.push_back(r);
  MPI_Barrier(comm);
  if (rank == 0) {
    t = send_windows(comm, targets, plan, 0, [&](unsigned it) { return it < windows; });
  } else if (rank <= receivers) {
    receive_windows(comm, plan, windows);
  }
  MPI_Barrier(comm);
  return t;
}

}  // namespace hpcdb
