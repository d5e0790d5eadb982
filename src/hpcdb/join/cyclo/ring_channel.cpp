#include "hpcdb/join/cyclo/ring_channel.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr int kNoteTag = 1;    // payload: the part's length in bytes
constexpr int kCreditTag = 2;  // payload: the cycle whose buffer is free again

void wait(MPI_Request& request) {
  if (request != MPI_REQUEST_NULL) MPI_Wait(&request, MPI_STATUS_IGNORE);
}

}  // namespace

RingChannel::RingChannel(const Cluster& cluster, std::size_t buffer_bytes, std::size_t chunk_bytes)
    : ranks_(cluster.size()),
      successor_((cluster.rank() + 1) % cluster.size()),
      predecessor_((cluster.rank() + cluster.size() - 1) % cluster.size()),
      buffer_bytes_(buffer_bytes),
      chunk_bytes_(chunk_bytes),
      comm_(cluster.world()),
      memory_(std::max<std::size_t>(2 * buffer_bytes, 64), Prefault::yes),
      window_(memory_.data(), memory_.bytes(), cluster.world()) {
  if (chunk_bytes_ == 0) throw UsageError("the ring's chunk size must be above 0 bytes");
}

RingChannel::~RingChannel() {
  // While an exception unwinds, peers may be anywhere: no waiting on them.
  if (std::uncaught_exceptions() > 0) return;
  wait(note_out_request_);
  wait(credit_out_request_);
  wait(note_request_);
  wait(credit_request_);
}

std::byte* RingChannel::buffer(unsigned cycle) const {
  return static_cast<std::byte*>(memory_.data()) + (cycle % 2) * buffer_bytes_;
}

void RingChannel::begin_cycle(unsigned cycle, std::size_t bytes) {
  if (bytes > buffer_bytes_) throw Error("a ring part is larger than its receive buffer");
  cycle_ = cycle;
  forward_bytes_ = forwards(cycle) ? bytes : 0;
  forwarded_ = 0;
  // The successor's buffer for this part was freed by its credit for the
  // cycle before; in cycle 0 it has never been used.
  credit_pending_ = forwards(cycle) && cycle > 0;
  if (credit_pending_) MPI_Irecv(&credit_, 1, MPI_UINT64_T, successor_, kCreditTag, comm_.get(), &credit_request_);
  note_arrived_ = false;
  if (cycle + 1 < cycles()) MPI_Irecv(&note_, 1, MPI_UINT64_T, predecessor_, kNoteTag, comm_.get(), &note_request_);
}

void RingChannel::issue_chunk() {
  const std::size_t bytes = std::min(chunk_bytes_, forward_bytes_ - forwarded_);
  const auto target = static_cast<MPI_Aint>(((cycle_ + 1) % 2) * buffer_bytes_ + forwarded_);
  MPI_Put(buffer(cycle_) + forwarded_, static_cast<int>(bytes), MPI_BYTE, successor_, target, static_cast<int>(bytes),
          MPI_BYTE, window_.handle());
  forwarded_ += bytes;
  traffic_.bytes += bytes;
  ++traffic_.chunks;
}

void RingChannel::progress() {
  int done = 0;
  if (credit_pending_) {
    MPI_Test(&credit_request_, &done, MPI_STATUS_IGNORE);
    credit_pending_ = done == 0;
  }
  if (!credit_pending_ && forwarded_ < forward_bytes_) issue_chunk();
  if (note_request_ != MPI_REQUEST_NULL) {
    MPI_Test(&note_request_, &done, MPI_STATUS_IGNORE);
    note_arrived_ = note_arrived_ || done != 0;
  }
}

void RingChannel::end_cycle() {
  if (forwards(cycle_)) {
    if (credit_pending_) wait(credit_request_);
    credit_pending_ = false;
    if (cycle_ > 0 && credit_ != cycle_ - 1) throw Error("the ring's credits arrived out of order");
    while (forwarded_ < forward_bytes_) issue_chunk();
    MPI_Win_flush(successor_, window_.handle());  // the part is in the successor's buffer
    wait(note_out_request_);
    note_out_ = forward_bytes_;
    MPI_Isend(&note_out_, 1, MPI_UINT64_T, successor_, kNoteTag, comm_.get(), &note_out_request_);
  }
  // This buffer is joined and forwarded: the predecessor may fill it again.
  if (receives_credit_for(cycle_)) {
    wait(credit_out_request_);
    credit_out_ = cycle_;
    MPI_Isend(&credit_out_, 1, MPI_UINT64_T, predecessor_, kCreditTag, comm_.get(), &credit_out_request_);
  }
}

std::size_t RingChannel::wait_for_part(unsigned cycle) {
  if (cycle == 0 || cycle >= cycles()) throw Error("the ring has no incoming part for cycle " + std::to_string(cycle));
  if (!note_arrived_) wait(note_request_);
  note_arrived_ = false;
  MPI_Win_sync(window_.handle());  // the puts' bytes are visible to loads
  if (note_ > buffer_bytes_) throw Error("the ring's predecessor announced a part larger than the buffer");
  return static_cast<std::size_t>(note_);
}

}  // namespace hpcdb
