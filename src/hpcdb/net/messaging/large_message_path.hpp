#pragma once
// Messages above the hybrid threshold: two-sided MPI on the layer's own
// communicator, one tag per priority class.
//
// Sending: a queued buffer leaves with MPI_Isend (header and payload in one
// message); the requests pile up and are completed together once there are
// `waitall_batch` of them or the oldest is `waitall_timeout` old: with
// MPI_Waitall by a thread that receives nothing (a thread that also receives
// must not block, or two ranks waiting for each other's receives would
// deadlock), otherwise with MPI_Testsome until all are done. At most four
// batches are in flight.
//
// Receiving: MPI_Improbe from any source gives the size and the message;
// MPI_Mrecv receives it into a pool buffer of that size class. When the pool
// is over its limit the matched message waits, unreceived, until a buffer is
// free (the sender's MPI_Isend stays pending meanwhile: back-pressure).
#include <mpi.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "hpcdb/net/messaging/layer_counters.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/net/messaging/outgoing_queue.hpp"

namespace hpcdb {

int large_message_tag(Priority priority);

class LargeSender {
 public:
  LargeSender(MPI_Comm comm, Priority priority, unsigned waitall_batch, double waitall_timeout_us)
      : comm_(comm), priority_(priority), batch_(waitall_batch), timeout_ns_(static_cast<std::uint64_t>(waitall_timeout_us * 1e3)) {}

  OutgoingQueue& queue() { return queue_; }
  // Starts at most `most` queued sends unless another thread is sending;
  // returns how many.
  std::size_t start_sends(std::size_t most, LayerCounters& counters);
  // Completes the pending sends when their number or age says so; `may_block`
  // allows MPI_Waitall. True if any completed.
  bool complete(bool may_block, LayerCounters& counters);
  bool idle() const { return queue_.empty() && in_flight_.load(std::memory_order_acquire) == 0; }

 private:
  MPI_Comm comm_;
  Priority priority_;
  unsigned batch_;
  std::uint64_t timeout_ns_;
  OutgoingQueue queue_;
  std::mutex mutex_;  // guards the pending requests
  std::vector<MPI_Request> requests_;
  std::vector<Outgoing> pending_;
  std::vector<int> done_;
  std::uint64_t oldest_ns_ = 0;
  std::atomic<std::size_t> in_flight_{0};
  std::vector<Outgoing> taken_;
};

struct ReceivedLarge {
  PooledBlock block;
  const MessageHeader* header = nullptr;
  int source = 0;
};

class LargeReceiver {
 public:
  LargeReceiver(MPI_Comm comm, Priority priority, BufferPool& pool) : comm_(comm), priority_(priority), pool_(pool) {}
  // The next message of this class that arrived, received into a pool buffer;
  // nothing when none arrived, or when the pool has no room for it yet.
  std::optional<ReceivedLarge> receive(LayerCounters& counters);

 private:
  MPI_Comm comm_;
  Priority priority_;
  BufferPool& pool_;
  std::mutex mutex_;  // guards the message matched but not yet received
  bool matched_ = false;
  MPI_Message message_ = MPI_MESSAGE_NULL;
  int bytes_ = 0;
  int source_ = 0;
};

}  // namespace hpcdb
