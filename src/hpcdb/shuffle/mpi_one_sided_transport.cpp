#include "hpcdb/shuffle/mpi_one_sided_transport.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/shuffle/idle_backoff.hpp"

namespace hpcdb {
namespace {

// A ring: the head on one cache line, the tail on the next, then the slots.
constexpr std::size_t kHeadOffset = 0;
constexpr std::size_t kTailOffset = 64;
constexpr std::size_t kSlotsOffset = 128;

}  // namespace

MpiOneSidedTransport::MpiOneSidedTransport(const Cluster& cluster, const ShuffleConfig& config)
    : cluster_(cluster), config_(config), ranks_(cluster.size()) {
  any_rma_ = !config.direct_writes || cluster.node_count() > 1;
  rma_peer_.assign(static_cast<std::size_t>(ranks_), false);
  for (int r = 0; r < ranks_; ++r) {
    if (r != cluster.rank() && !direct(r)) {
      rma_peer_[static_cast<std::size_t>(r)] = true;
      ++rma_peers_;
    }
  }
  const std::size_t bytes = static_cast<std::size_t>(ranks_) * config.threads * ring_bytes();
  arena_ = NodeSharedArena(cluster, bytes);
  mine_ = arena_.segment(cluster.node_rank());
  std::memset(mine_, 0, bytes);
  if (any_rma_) {
    window_.emplace(mine_, bytes, cluster.world());
    int* model = nullptr;
    int found = 0;
    MPI_Win_get_attr(window_->handle(), MPI_WIN_MODEL, &model, &found);
    if (!found || *model != MPI_WIN_UNIFIED) {
      throw Error("mpi-one-sided needs MPI's unified memory model (MPI_WIN_UNIFIED) between nodes; use another --transport");
    }
  }
  workers_.resize(config.threads);
  for (Worker& w : workers_) {
    w.out.resize(static_cast<std::size_t>(ranks_));
    w.consumed.assign(static_cast<std::size_t>(ranks_), 0);
    w.staging = AlignedArray<std::byte>(std::max<std::size_t>(rma_peers_, 1) * config.buffers * config.buffer_bytes,
                                        rma_peers_ > 0 ? Prefault::yes : Prefault::no);
    int staging = 0;
    for (int d = 0; d < ranks_; ++d) {
      Outgoing& o = w.out[static_cast<std::size_t>(d)];
      o.sent.assign(config.buffers, false);
      if (rma_peer_[static_cast<std::size_t>(d)]) {
        o.staging = staging++;
        o.puts.assign(config.buffers, MPI_REQUEST_NULL);
      }
    }
  }
  MPI_Barrier(cluster.world());  // every ring is zeroed before anyone writes
}

MpiOneSidedTransport::~MpiOneSidedTransport() {
  for (Worker& w : workers_) {
    for (Outgoing& o : w.out) {
      for (MPI_Request& r : o.puts) {
        if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
    }
  }
  MPI_Barrier(cluster_.world());  // nobody reads or writes a ring any more
}

TransportResources MpiOneSidedTransport::resources() const {
  const std::uint64_t rings = static_cast<std::uint64_t>(ranks_ - 1) * config_.threads * ring_bytes();
  const std::uint64_t staging = static_cast<std::uint64_t>(rma_peers_) * config_.threads * config_.buffers * config_.buffer_bytes;
  return {rings + staging, static_cast<std::uint64_t>(ranks_ - 1)};
}

std::size_t MpiOneSidedTransport::ring_bytes() const { return kSlotsOffset + config_.buffers * config_.buffer_bytes; }

std::uint64_t MpiOneSidedTransport::ring_offset(int source, unsigned stream) const {
  return (static_cast<std::uint64_t>(source) * config_.threads + stream) * ring_bytes();
}

bool MpiOneSidedTransport::direct(int rank) const {
  return config_.direct_writes && cluster_.node_rank_of(rank) >= 0;
}

std::byte* MpiOneSidedTransport::ring_of(int receiver, int source, unsigned stream) const {
  return arena_.segment(cluster_.node_rank_of(receiver)) + ring_offset(source, stream);
}

std::atomic_ref<std::uint64_t> MpiOneSidedTransport::head(std::byte* ring) const {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(ring + kHeadOffset));
}

std::atomic_ref<std::uint64_t> MpiOneSidedTransport::tail(std::byte* ring) const {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(ring + kTailOffset));
}

// The destination's tail: a load on a node; between nodes an MPI_Rget that
// this call starts, or whose result it takes when it has arrived.
void MpiOneSidedTransport::refresh_tail(unsigned worker, int dest) {
  Outgoing& o = workers_[worker].out[static_cast<std::size_t>(dest)];
  if (!rma_peer_[static_cast<std::size_t>(dest)]) {
    o.known_tail = tail(ring_of(dest, cluster_.rank(), worker)).load(std::memory_order_acquire);
    return;
  }
  std::lock_guard lock(mpi_);
  if (o.tail_get == MPI_REQUEST_NULL) {
    const MPI_Aint at = static_cast<MPI_Aint>(ring_offset(cluster_.rank(), worker) + kTailOffset);
    MPI_Rget(&o.tail_in, 1, MPI_UINT64_T, dest, at, 1, MPI_UINT64_T, window_->handle(), &o.tail_get);
    return;
  }
  int done = 0;
  MPI_Test(&o.tail_get, &done, MPI_STATUS_IGNORE);
  if (done) o.known_tail = std::max(o.known_tail, o.tail_in);
}

// RMA: makes the slots sent so far visible to the destination: a flush
// lands their data, then the new head follows with MPI_Put. The head itself
// lands with the next flush to the destination (settle_heads() before any
// wait), so a busy sender pays one round trip per announcement.
void MpiOneSidedTransport::announce(unsigned worker, int dest) {
  Outgoing& o = workers_[worker].out[static_cast<std::size_t>(dest)];
  if (o.ready == o.announced) return;
  std::lock_guard lock(mpi_);
  const MPI_Win win = window_->handle();
  MPI_Win_flush(dest, win);
  o.head_out = o.ready;
  const MPI_Aint at = static_cast<MPI_Aint>(ring_offset(cluster_.rank(), worker) + kHeadOffset);
  MPI_Put(&o.head_out, 1, MPI_UINT64_T, dest, at, 1, MPI_UINT64_T, win);
  o.announced = o.ready;
  o.head_in_flight = true;
}

// RMA: announces every slot sent and waits until the heads have landed.
void MpiOneSidedTransport::settle_heads(unsigned worker) {
  for (int d = 0; d < ranks_; ++d) {
    if (!rma_peer_[static_cast<std::size_t>(d)]) continue;
    announce(worker, d);
    Outgoing& o = workers_[worker].out[static_cast<std::size_t>(d)];
    if (!o.head_in_flight) continue;
    std::lock_guard lock(mpi_);
    MPI_Win_flush(d, window_->handle());
    o.head_in_flight = false;
  }
}

BatchBuffer MpiOneSidedTransport::acquire(unsigned worker, int dest, BatchSink& sink) {
  Worker& w = workers_[worker];
  Outgoing& o = w.out[static_cast<std::size_t>(dest)];
  const bool rma = rma_peer_[static_cast<std::size_t>(dest)];
  IdleBackoff backoff;
  while (o.acquired - o.known_tail >= config_.buffers) {
    if (rma) settle_heads(worker);  // never wait for credits a destination cannot yet give
    refresh_tail(worker, dest);
    if (o.acquired - o.known_tail < config_.buffers) break;
    if (poll(worker, sink)) backoff.busy();
    else backoff.idle();
  }
  const std::uint64_t slot = o.acquired % config_.buffers;
  std::byte* buffer = nullptr;
  if (rma) {
    MPI_Request& previous = o.puts[slot];
    while (previous != MPI_REQUEST_NULL) {
      int done = 0;
      {
        std::lock_guard lock(mpi_);
        MPI_Test(&previous, &done, MPI_STATUS_IGNORE);
      }
      if (!done && !poll(worker, sink)) backoff.idle();
    }
    buffer = w.staging.data() + (static_cast<std::size_t>(o.staging) * config_.buffers + slot) * config_.buffer_bytes;
  } else {
    buffer = ring_of(dest, cluster_.rank(), worker) + kSlotsOffset + slot * config_.buffer_bytes;
  }
  const std::uint64_t position = o.acquired++;
  // Ask for the tail early, so that its answer is back before the credits run out.
  if (rma && o.acquired - o.known_tail >= std::max(1u, config_.buffers / 2)) refresh_tail(worker, dest);
  return {reinterpret_cast<BatchHeader*>(buffer), buffer + kBatchHeaderBytes, position};
}

void MpiOneSidedTransport::send(unsigned worker, int dest, const BatchBuffer& buffer) {
  Outgoing& o = workers_[worker].out[static_cast<std::size_t>(dest)];
  const std::uint64_t slot = buffer.slot % config_.buffers;
  if (rma_peer_[static_cast<std::size_t>(dest)]) {
    const auto bytes = static_cast<int>(kBatchHeaderBytes + buffer.header->payload_bytes());
    const MPI_Aint at = static_cast<MPI_Aint>(ring_offset(cluster_.rank(), worker) + kSlotsOffset + slot * config_.buffer_bytes);
    std::lock_guard lock(mpi_);
    MPI_Rput(buffer.header, bytes, MPI_BYTE, dest, at, bytes, MPI_BYTE, window_->handle(), &o.puts[slot]);
  }
  // A slot counts once every slot before it was sent too (buffers of one
  // stream may be sent out of order).
  o.sent[slot] = true;
  while (o.ready < o.acquired && o.sent[o.ready % config_.buffers]) {
    o.sent[o.ready % config_.buffers] = false;
    ++o.ready;
  }
  if (!rma_peer_[static_cast<std::size_t>(dest)]) {
    head(ring_of(dest, cluster_.rank(), worker)).store(o.ready, std::memory_order_release);
  } else if (buffer.header->last() || o.ready - o.announced >= std::max(1u, (config_.buffers + 1) / 2)) {
    announce(worker, dest);
  }
}

// Hands the slots `source` has published in this worker's ring to the sink.
bool MpiOneSidedTransport::consume_ring(unsigned worker, int source, BatchSink& sink) {
  std::byte* ring = mine_ + ring_offset(source, worker);
  std::uint64_t& consumed = workers_[worker].consumed[static_cast<std::size_t>(source)];
  const std::uint64_t published = head(ring).load(std::memory_order_acquire);
  if (published == consumed) return false;
  while (consumed < published) {
    std::byte* slot = ring + kSlotsOffset + (consumed % config_.buffers) * config_.buffer_bytes;
    const auto& header = *reinterpret_cast<const BatchHeader*>(slot);
    check_header(header, ranks_, config_, 0);
    if (header.source != static_cast<std::uint32_t>(source)) throw Error("a batch landed in another rank's ring");
    sink.deliver(worker, header, slot + kBatchHeaderBytes);
    ++consumed;
    tail(ring).store(consumed, std::memory_order_release);
  }
  return true;
}

bool MpiOneSidedTransport::poll(unsigned worker, BatchSink& sink) {
  Worker& w = workers_[worker];
  const bool rma_sources = any_rma_ && rma_peers_ > 0;
  if (rma_sources) {
    std::lock_guard lock(mpi_);
    MPI_Win_sync(window_->handle());
    // Software RMA (over TCP) progresses only inside MPI calls.
    if ((++w.polls & 0) == 0) {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, cluster_.world(), &flag, MPI_STATUS_IGNORE);
    }
  }
  bool arrived = false;
  for (int s = 0; s < ranks_; ++s) {
    if (s != cluster_.rank() && consume_ring(worker, s, sink)) arrived = true;
  }
  if (arrived && rma_sources) {
    std::lock_guard lock(mpi_);
    MPI_Win_sync(window_->handle());  // the new tails, for the senders' MPI_Get
  }
  if (rma_sources) {
    for (int d = 0; d < ranks_; ++d) {
      if (rma_peer_[static_cast<std::size_t>(d)] && w.out[static_cast<std::size_t>(d)].tail_get != MPI_REQUEST_NULL) {
        refresh_tail(worker, d);
      }
    }
    // Nothing arrived: let the destinations see every slot sent so far.
    if (!arrived) settle_heads(worker);
  }
  return arrived;
}

void MpiOneSidedTransport::finish(unsigned worker, BatchSink& sink) {
  Worker& w = workers_[worker];
  IdleBackoff backoff;
  if (rma_peers_ > 0) settle_heads(worker);
  for (int d = 0; d < ranks_; ++d) {
    if (d == cluster_.rank()) continue;
    Outgoing& o = w.out[static_cast<std::size_t>(d)];
    for (;;) {
      refresh_tail(worker, d);
      if (o.known_tail == o.acquired) break;
      if (poll(worker, sink)) backoff.busy();
      else backoff.idle();
    }
    std::lock_guard lock(mpi_);
    for (MPI_Request& r : o.puts) {
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    if (o.tail_get != MPI_REQUEST_NULL) MPI_Wait(&o.tail_get, MPI_STATUS_IGNORE);
  }
}

}  // namespace hpcdb
