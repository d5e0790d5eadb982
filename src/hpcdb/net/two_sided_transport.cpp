#include "hpcdb/net/two_sided_transport.hpp"

namespace hpcdb {
namespace {
constexpr int kFrameTag = 0x5eed;
}

TwoSidedTransport::TwoSidedTransport(MPI_Comm comm)
    : buffers_(kPostedReceives), requests_(kPostedReceives, MPI_REQUEST_NULL) {
  MPI_Comm_dup(comm, &comm_);
  for (std::uint32_t i = 0; i < kPostedReceives; ++i) post(i);
  MPI_Barrier(comm_);
}

TwoSidedTransport::~TwoSidedTransport() {
  MPI_Barrier(comm_);  // nobody sends any more
  for (MPI_Request& r : requests_) {  // completed, not reposted ones are MPI_REQUEST_NULL
    if (r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&comm_);
}

void TwoSidedTransport::post(std::uint32_t index) {
  MPI_Irecv(&buffers_[index], sizeof(MessageFrame), MPI_BYTE, MPI_ANY_SOURCE, kFrameTag, comm_, &requests_[index]);
}

void TwoSidedTransport::send(int target, const void* bytes, std::size_t size) {
  const MessageFrame frame = MessageFrame::carrying(bytes, size);
  MPI_Send(&frame, sizeof frame, MPI_BYTE, target, kFrameTag, comm_);
}

void TwoSidedTransport::repost_completed() {
  for (; completed_ > 0; --completed_) post((next_ + kPostedReceives - completed_) % kPostedReceives);
}

std::optional<Envelope> TwoSidedTransport::poll() {
  for (;;) {
    if (completed_ >= kPostedReceives / 2) repost_completed();
    int done = 0;
    MPI_Status status;
    MPI_Test(&requests_[next_], &done, &status);
    if (!done) {
      repost_completed();
      return std::nullopt;
    }
    const MessageFrame& frame = buffers_[next_];
    next_ = (next_ + 1) % kPostedReceives;
    ++completed_;
    if (frame.kind == FrameKind::vote) {
      std::uint64_t addend = 0;
      std::memcpy(&addend, frame.payload, sizeof addend);
      tallies_[frame.vote_slot % kVoteSlots] += addend;
      continue;
    }
    return frame.open(status.MPI_SOURCE);
  }
}

void TwoSidedTransport::cast_vote(int coordinator, std::uint32_t slot, bool yes) {
  const MessageFrame frame = MessageFrame::vote(slot, yes ? kYesVote : kNoVote);
  MPI_Send(&frame, sizeof frame, MPI_BYTE, coordinator, kFrameTag, comm_);
}

VoteTally TwoSidedTransport::votes(std::uint32_t slot) { return VoteTally::of(tallies_[slot % kVoteSlots]); }

}  // namespace hpcdb
