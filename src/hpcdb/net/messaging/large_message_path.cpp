#include "hpcdb/net/messaging/large_message_path.hpp"

#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/stopwatch.hpp"

namespace hpcdb {

int large_message_tag(Priority priority) { return 0x4d4c00 + static_cast<int>(priority); }

std::size_t LargeSender::start_sends(std::size_t most, LayerCounters& counters) {
  if (queue_.empty()) return 0;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return 0;
  const std::size_t room = 4 * static_cast<std::size_t>(batch_) - std::min(pending_.size(), 4 * static_cast<std::size_t>(batch_));
  taken_.clear();
  queue_.take(std::min(most, room), taken_);
  for (Outgoing& m : taken_) {
    MPI_Request request;
    MPI_Isend(m.block.memory(), static_cast<int>(m.wire_bytes), MPI_BYTE, m.target, large_message_tag(priority_), comm_,
              &request);
    if (pending_.empty()) oldest_ns_ = monotonic_ns();
    counters.large_sent[static_cast<std::size_t>(priority_)].add(m.wire_bytes - sizeof(MessageHeader));
    requests_.push_back(request);
    pending_.push_back(std::move(m));
  }
  in_flight_.store(pending_.size(), std::memory_order_release);
  return taken_.size();
}

bool LargeSender::complete(bool may_block, LayerCounters& counters) {
  if (in_flight_.load(std::memory_order_acquire) == 0) return false;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || pending_.empty()) return false;
  const bool due = pending_.size() >= batch_ || monotonic_ns() - oldest_ns_ >= timeout_ns_;
  if (!due) return false;
  bool any = false;
  if (may_block) {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    pending_.clear();
    requests_.clear();
    any = true;
  } else {
    done_.resize(requests_.size());
    int count = 0;
    MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &count, done_.data(), MPI_STATUSES_IGNORE);
    if (count > 0 && count != MPI_UNDEFINED) {
      any = true;
      // Completed requests are now MPI_REQUEST_NULL: drop them and their buffers.
      std::size_t kept = 0;
      for (std::size_t i = 0; i < requests_.size(); ++i) {
        if (requests_[i] == MPI_REQUEST_NULL) continue;
        requests_[kept] = requests_[i];
        pending_[kept] = std::move(pending_[i]);
        ++kept;
      }
      requests_.resize(kept);
      pending_.resize(kept);
    }
  }
  if (any) LayerCounters::bump(counters.waitalls);
  in_flight_.store(pending_.size(), std::memory_order_release);
  if (!pending_.empty() && any) oldest_ns_ = monotonic_ns();
  return any;
}

std::optional<ReceivedLarge> LargeReceiver::receive(LayerCounters& counters) {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;
  if (!matched_) {
    int found = 0;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, large_message_tag(priority_), comm_, &found, &message_, &status);
    if (!found) return std::nullopt;
    MPI_Get_count(&status, MPI_BYTE, &bytes_);
    source_ = status.MPI_SOURCE;
    matched_ = true;
  }
  if (bytes_ < static_cast<int>(sizeof(MessageHeader))) {
    throw Error("the message layer received a malformed message of " + std::to_string(bytes_) + " bytes from rank " +
                std::to_string(source_));
  }
  PooledBlock block = pool_.acquire(static_cast<std::size_t>(bytes_) - sizeof(MessageHeader), BufferPool::OverLimit::give_up);
  if (!block) return std::nullopt;  // retried once a buffer is released
  MPI_Mrecv(block.memory(), bytes_, MPI_BYTE, &message_, MPI_STATUS_IGNORE);
  matched_ = false;
  const auto* header = reinterpret_cast<const MessageHeader*>(block.memory());
  if (header->magic != MessageHeader::kMagic ||
      header->payload_bytes != static_cast<std::uint32_t>(bytes_) - sizeof(MessageHeader)) {
    throw Error("the message layer received a damaged message from rank " + std::to_string(source_));
  }
  counters.large_received[static_cast<std::size_t>(priority_)].add(header->payload_bytes);
  return ReceivedLarge{std::move(block), header, source_};
}

}  // namespace hpcdb
