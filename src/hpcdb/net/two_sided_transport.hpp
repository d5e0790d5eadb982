#pragma once
// Messages with MPI_Send into receives posted ahead of time: a fixed ring of
// kPostedReceives receives from any source, always completed and reposted in
// ring order, so that each sender's messages arrive in order. A completed
// receive is reposted when the transport is next idle (or when half the ring
// waits), which keeps the repost off the path from a message to its answer.
// Votes are messages too; the coordinator adds them to its tally as they arrive.
#include <array>
#include <vector>

#include "hpcdb/net/message_frame.hpp"
#include "hpcdb/net/message_transport.hpp"

namespace hpcdb {

class TwoSidedTransport final : public MessageTransport {
 public:
  static constexpr std::uint32_t kPostedReceives = 16;
  static constexpr std::uint32_t kVoteSlots = 64;

  explicit TwoSidedTransport(MPI_Comm comm);  // collective
  ~TwoSidedTransport() override;
  TwoSidedTransport(const TwoSidedTransport&) = delete;
  TwoSidedTransport& operator=(const TwoSidedTransport&) = delete;

  std::string name() const override { return "two-sided"; }
  void send(int target, const void* bytes, std::size_t size) override;
  std::optional<Envelope> poll() override;
  std::uint32_t vote_slots() const override { return kVoteSlots; }
  void reset_votes(std::uint32_t slot) override { tallies_[slot % kVoteSlots] = 0; }
  void cast_vote(int coordinator, std::uint32_t slot, bool yes) override;
  VoteTally votes(std::uint32_t slot) override;

 private:
  void post(std::uint32_t index);
  void repost_completed();

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<MessageFrame> buffers_;
  std::vector<MPI_Request> requests_;
  std::uint32_t next_ = 0;       // the receive that completes first
  std::uint32_t completed_ = 0;  // receives before next_ not yet reposted
  std::array<std::uint64_t, kVoteSlots> tallies_{};
};

}  // namespace hpcdb
