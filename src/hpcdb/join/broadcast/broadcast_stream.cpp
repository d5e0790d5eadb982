#include "hpcdb/join/broadcast/broadcast_stream.hpp"

#include <algorithm>
#include <climits>
#include <exception>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

BroadcastStream::BroadcastStream(const Cluster& cluster, const std::vector<std::uint64_t>& fragments, std::size_t value_bytes,
                                 std::size_t chunk_values, unsigned depth, Route route)
    : comm_(cluster.world()), rank_(cluster.rank()), ranks_(cluster.size()), route_(route), value_bytes_(value_bytes) {
  if (chunk_values == 0) throw UsageError("the broadcast chunk must hold at least one tuple");
  if (chunk_values * value_bytes > (std::size_t{1} << 30)) throw UsageError("--chunk-size must be at most 1 GiB");
  if (depth == 0) throw UsageError("the broadcast needs at least one chunk in flight");
  for (int owner = 0; owner < ranks_; ++owner) {
    const std::uint64_t n = fragments[static_cast<std::size_t>(owner)];
    for (std::uint64_t first = 0; first < n; first += chunk_values) {
      chunk_owner_.push_back(owner);
      chunk_first_.push_back(first);
      chunk_count_.push_back(std::min<std::uint64_t>(chunk_values, n - first));
    }
  }
  // One slot is being joined while `depth` chunks travel.
  const std::size_t slots = std::min<std::size_t>(depth + 1, std::max<std::size_t>(chunk_owner_.size(), 1));
  slots_.resize(slots);
  for (Slot& slot : slots_) slot.memory = MemoryRegion(chunk_values * value_bytes, Prefault::yes);
}

BroadcastStream::~BroadcastStream() {
  if (std::uncaught_exceptions() > 0) return;  // messages in flight: the ending job cleans up
  for (Slot& slot : slots_) {
    MPI_Wait(&slot.receive, MPI_STATUS_IGNORE);
    MPI_Wait(&slot.forward, MPI_STATUS_IGNORE);
  }
}

bool BroadcastStream::forwards(std::size_t chunk) const {
  const int owner = chunk_owner_[chunk];
  // The owner's predecessor ends the chain.
  return route_ == Route::ring && ranks_ > 1 && (rank_ + 1) % ranks_ != owner;
}

void BroadcastStream::post(std::size_t chunk) {
  Slot& slot = slots_[chunk % slots_.size()];
  slot.chunk = chunk;
  const int bytes = static_cast<int>(chunk_bytes(chunk));
  const int owner = chunk_owner_[chunk];
  if (route_ == Route::tree) {
    if (owner == rank_) {
      encode_(chunk_first_[chunk], chunk_count_[chunk], bytes_of(slot));
      bytes_sent_ += chunk_bytes(chunk) * static_cast<std::size_t>(ranks_ - 1);
    }
    MPI_Ibcast(bytes_of(slot), bytes, MPI_BYTE, owner, comm_.get(), &slot.receive);
    slot.arrived = false;
  } else if (owner == rank_) {
    encode_(chunk_first_[chunk], chunk_count_[chunk], bytes_of(slot));
    slot.arrived = true;
  } else {
    const int predecessor = (rank_ + ranks_ - 1) % ranks_;
    MPI_Irecv(bytes_of(slot), bytes, MPI_BYTE, predecessor, 0, comm_.get(), &slot.receive);
    slot.arrived = false;
  }
  slot.must_forward = forwards(chunk);
  forward_arrived();
}

void BroadcastStream::forward_arrived() {
  // In chunk order: the successor receives them in the order it posted them.
  while (next_to_forward_ < next_to_post_) {
    Slot& slot = slots_[next_to_forward_ % slots_.size()];
    if (slot.must_forward) {
      if (!slot.arrived) return;
      MPI_Isend(bytes_of(slot), static_cast<int>(chunk_bytes(slot.chunk)), MPI_BYTE, (rank_ + 1) % ranks_, 0, comm_.get(),
                &slot.forward);
      bytes_sent_ += chunk_bytes(slot.chunk);
      slot.must_forward = false;
    }
    ++next_to_forward_;
  }
}

bool BroadcastStream::poll() {
  bool any = false;
  for (Slot& slot : slots_) {
    int done = 0;
    if (slot.receive != MPI_REQUEST_NULL) {
      MPI_Test(&slot.receive, &done, MPI_STATUS_IGNORE);
      if (done) slot.arrived = any = true;
    }
    if (slot.forward != MPI_REQUEST_NULL) {
      MPI_Test(&slot.forward, &done, MPI_STATUS_IGNORE);
      any = any || done;
    }
  }
  if (any) forward_arrived();
  return any;
}

void BroadcastStream::start(Encoder encode) {
  for (Slot& slot : slots_) {
    if (slot.receive != MPI_REQUEST_NULL) throw Error("a broadcast pass started before the last one ended");
    MPI_Wait(&slot.forward, MPI_STATUS_IGNORE);  // the last pass's final chunks, on their way on
  }
  encode_ = std::move(encode);
  next_to_post_ = next_to_return_ = next_to_forward_ = 0;
  bytes_sent_ = 0;
  // All slots but the one the caller will hold.
  while (next_to_post_ < chunk_owner_.size() && next_to_post_ + 1 < slots_.size()) post(next_to_post_++);
}

std::span<const std::byte> BroadcastStream::next() {
  if (next_to_return_ == chunk_owner_.size()) return {};
  // The slot the caller held until now is free once its chunk has gone on:
  // the chunk after those in flight goes there.
  if (next_to_post_ < chunk_owner_.size()) {
    Slot& freed = slots_[next_to_post_ % slots_.size()];
    while (freed.must_forward || freed.forward != MPI_REQUEST_NULL) {
      forward_arrived();
      if (freed.forward != MPI_REQUEST_NULL) MPI_Wait(&freed.forward, MPI_STATUS_IGNORE);
      else poll();
    }
    post(next_to_post_++);
  }
  const std::size_t chunk = next_to_return_++;
  Slot& slot = slots_[chunk % slots_.size()];
  // Waiting for this chunk, the chunks ahead of it keep moving on.
  while (!slot.arrived) {
    MPI_Wait(&slot.receive, MPI_STATUS_IGNORE);
    slot.arrived = true;
    poll();
  }
  forward_arrived();
  return {bytes_of(slot), chunk_bytes(chunk)};
}

void BroadcastStream::progress() { poll(); }

}  // namespace hpcdb
