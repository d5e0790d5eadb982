#include "hpcdb/net/all_to_all_exchange.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <exception>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

AllToAllExchange::AllToAllExchange(const Cluster& cluster, MPI_Comm comm, std::span<std::byte> receive,
                                   ExchangeTransport transport, ExchangeSchedule schedule, std::size_t chunk_bytes,
                                   std::uint64_t seed)
    : cluster_(cluster), receive_(receive), transport_(transport), schedule_(schedule), chunk_bytes_(chunk_bytes), seed_(seed),
      comm_(comm) {
  if (chunk_bytes == 0 || chunk_bytes > INT_MAX) throw UsageError("the exchange's chunk size must be 1 B to 2 GiB");
  if (transport == ExchangeTransport::put) window_ = std::make_unique<RmaWindow>(receive.data(), receive.size(), comm_);
}

AllToAllExchange::~AllToAllExchange() {
  if (std::uncaught_exceptions() > 0) return;  // peers may never come: the ending job cleans up
  window_.reset();
}

std::vector<AllToAllExchange::Chunk> AllToAllExchange::chunks_to(int target, const AllToAllPlan& plan) const {
  std::vector<Chunk> chunks;
  for (const OutgoingPiece& piece : plan.outgoing[static_cast<std::size_t>(target)]) {
    for (std::size_t done = 0; done < piece.bytes; done += chunk_bytes_) {
      chunks.push_back({target, piece.data + done, std::min(chunk_bytes_, piece.bytes - done), piece.displacement + done});
    }
  }
  return chunks;
}

void AllToAllExchange::send(const std::vector<Chunk>& chunks, ExchangeStats& stats) {
  for (const Chunk& c : chunks) {
    if (transport_ == ExchangeTransport::put) {
      MPI_Put(c.data, static_cast<int>(c.bytes), MPI_BYTE, c.target, static_cast<MPI_Aint>(c.displacement),
              static_cast<int>(c.bytes), MPI_BYTE, window_->handle());
    } else {
      sends_.emplace_back();
      MPI_Isend(c.data, static_cast<int>(c.bytes), MPI_BYTE, c.target, 0, comm_, &sends_.back());
    }
    stats.bytes += c.bytes;
    ++stats.transfers;
  }
  // Completes these chunks before the next target's: the schedule is the
  // order in which links are used, so nothing runs ahead of it.
  if (transport_ == ExchangeTransport::put) {
    if (!chunks.empty()) MPI_Win_flush(chunks.front().target, window_->handle());
  } else {
    MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
    sends_.clear();
  }
}

void AllToAllExchange::post_receives(const AllToAllPlan& plan) {
  receives_.clear();
  for (int source = 0; source < cluster_.size(); ++source) {
    if (source == cluster_.rank()) continue;
    for (const OutgoingPiece& piece : plan.incoming[static_cast<std::size_t>(source)]) {
      if (piece.displacement + piece.bytes > receive_.size()) throw Error("an incoming piece lies outside the receive memory");
      for (std::size_t done = 0; done < piece.bytes; done += chunk_bytes_) {
        receives_.emplace_back();
        MPI_Irecv(receive_.data() + piece.displacement + done, static_cast<int>(std::min(chunk_bytes_, piece.bytes - done)),
                  MPI_BYTE, source, 0, comm_, &receives_.back());
      }
    }
  }
}

void AllToAllExchange::copy_to_self(const AllToAllPlan& plan) {
  for (const OutgoingPiece& piece : plan.outgoing[static_cast<std::size_t>(cluster_.rank())]) {
    if (piece.displacement + piece.bytes > receive_.size()) throw Error("a local piece lies outside the receive memory");
    std::memcpy(receive_.data() + piece.displacement, piece.data, piece.bytes);
  }
}

ExchangeStats AllToAllExchange::run(const AllToAllPlan& plan) {
  const int me = cluster_.rank(), ranks = cluster_.size();
  if (plan.outgoing.size() != static_cast<std::size_t>(ranks)) throw Error("the exchange plan needs pieces for every rank");
  if (transport_ == ExchangeTransport::messages && plan.incoming.size() != static_cast<std::size_t>(ranks)) {
    throw Error("the messages transport needs every source's incoming pieces");
  }
  ExchangeStats stats;
  if (transport_ == ExchangeTransport::messages) post_receives(plan);
  // Every window is open, and the synchronized schedule's first round starts
  // together. Messages need no such start: without a synchronized schedule
  // a rank sends as soon as it is ready, as the thesis's unsynchronized and
  // random distributions did (the jam they show comes from ranks that drift
  // apart; a message that comes before its receive waits for it).
  if (transport_ == ExchangeTransport::put || schedule_ == ExchangeSchedule::synchronized) MPI_Barrier(comm_);
  const double start = MPI_Wtime();
  copy_to_self(plan);
  if (schedule_ == ExchangeSchedule::random) {
    std::vector<std::vector<Chunk>> per_target(static_cast<std::size_t>(ranks));
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(ranks), 0);
    for (int t = 0; t < ranks; ++t) {
      if (t == me) continue;
      per_target[static_cast<std::size_t>(t)] = chunks_to(t, plan);
      counts[static_cast<std::size_t>(t)] = per_target[static_cast<std::size_t>(t)].size();
    }
    std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
    for (int t : random_chunk_order(counts, seed_ ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(me + 1)))) {
      const auto ti = static_cast<std::size_t>(t);
      send({per_target[ti][next[ti]++]}, stats);
    }
    stats.sending_seconds = MPI_Wtime() - start;
  } else {
    for (int target : ring_order(me, ranks)) {
      send(chunks_to(target, plan), stats);
      stats.sending_seconds = MPI_Wtime() - start;
      if (schedule_ == ExchangeSchedule::synchronized) {
        const double waited = MPI_Wtime();
        MPI_Barrier(comm_);
        stats.waiting_seconds += MPI_Wtime() - waited;
        ++stats.rounds;
      }
    }
  }
  MPI_Waitall(static_cast<int>(receives_.size()), receives_.data(), MPI_STATUSES_IGNORE);
  receives_.clear();
  MPI_Barrier(comm_);  // every piece of every sender is in place
  if (window_) MPI_Win_sync(window_->handle());
  return stats;
}

}  // namespace hpcdb
