#include "hpcdb/join/broadcast/broadcast_stream.hpp"

#include <algorithm>
#include <exception>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

BroadcastStream::BroadcastStream(const Cluster& cluster, std::uint64_t fragment_values, std::size_t value_bytes,
                                 std::size_t chunk_values, unsigned depth)
    : rank_(cluster.rank()), ranks_(cluster.size()), value_bytes_(value_bytes), chunk_values_(chunk_values) {
  if (chunk_values == 0) throw UsageError("the broadcast chunk must hold at least one tuple");
  if (chunk_values * value_bytes > (std::size_t{1} << 30)) throw UsageError("--chunk-size must be at most 1 GiB");
  if (depth == 0) throw UsageError("the broadcast needs at least one chunk in flight");
  MPI_Comm_dup(cluster.world(), &comm_);
  const std::vector<std::uint64_t> fragments = allgather(fragment_values, cluster.world());
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
  for (std::size_t s = 0; s < slots; ++s) slots_.emplace_back(chunk_values * value_bytes, Prefault::yes);
  requests_.assign(slots, MPI_REQUEST_NULL);
}

BroadcastStream::~BroadcastStream() {
  if (std::uncaught_exceptions() > 0) return;  // collectives in flight: the ending job cleans up
  for (MPI_Request& r : requests_) {
    if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&comm_);
}

void BroadcastStream::post(std::size_t chunk) {
  const std::size_t slot = chunk % slots_.size();
  auto* bytes = static_cast<std::byte*>(slots_[slot].data());
  const int owner = chunk_owner_[chunk];
  const std::size_t count = chunk_count_[chunk];
  if (owner == rank_) {
    encode_(chunk_first_[chunk], count, bytes);
    bytes_sent_ += count * value_bytes_ * static_cast<std::size_t>(ranks_ - 1);
  }
  MPI_Ibcast(bytes, static_cast<int>(count * value_bytes_), MPI_BYTE, owner, comm_, &requests_[slot]);
}

void BroadcastStream::start(Encoder encode) {
  for (MPI_Request& r : requests_) {
    if (r != MPI_REQUEST_NULL) throw Error("a broadcast pass started before the last one ended");
  }
  encode_ = std::move(encode);
  next_to_post_ = 0;
  next_to_return_ = 0;
  bytes_sent_ = 0;
  // All slots but the one the caller will hold.
  while (next_to_post_ < chunk_owner_.size() && next_to_post_ + 1 < slots_.size()) post(next_to_post_++);
}

std::span<std::byte> BroadcastStream::next() {
  if (next_to_return_ == chunk_owner_.size()) return {};
  // The slot the caller held until now is free: the chunk after those in flight goes there.
  if (next_to_post_ < chunk_owner_.size()) post(next_to_post_++);
  const std::size_t chunk = next_to_return_++;
  const std::size_t slot = chunk % slots_.size();
  MPI_Wait(&requests_[slot], MPI_STATUS_IGNORE);
  return {static_cast<std::byte*>(slots_[slot].data()), chunk_count_[chunk] * value_bytes_};
}

void BroadcastStream::progress() {
  for (MPI_Request& r : requests_) {
    if (r == MPI_REQUEST_NULL) continue;
    int done = 0;
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    return;  // the oldest request moves the others too
  }
}

}  // namespace hpcdb
