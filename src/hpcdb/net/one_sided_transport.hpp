#pragma once
// Mailboxes in one MPI window per rank, allocated once, written only with
// one-sided operations (on a node Open MPI maps them to shared memory, across
// nodes to RDMA).
//
// Each rank's window holds, for every possible sender, a ring of
// kSlotsPerSender 64-byte message slots, plus a notification queue that tells
// the receiver which slot to read next, so it never scans the slots: a sender
// puts its frame into its next slot, takes a position in the receiver's
// queue with an atomic fetch-and-add on the queue's tail, and writes
// "(position + 1, sender)" into that queue entry with an atomic replace. The
// receiver reads entries in position order from its own memory; an entry is
// valid when it carries the expected position, so entries are never cleared.
//
// Flow control: the receiver publishes, per sender, how many messages it has
// consumed; a sender whose ring is full reads that count (rare: protocols
// that wait for replies never have more than a few messages in flight).
//
// Vote words sit at the start of the window; participants add to them with
// MPI_Fetch_and_op.
#include <deque>
#include <vector>

#include "hpcdb/net/message_frame.hpp"
#include "hpcdb/net/message_transport.hpp"

namespace hpcdb {

class OneSidedTransport final : public MessageTransport {
 public:
  static constexpr std::uint32_t kSlotsPerSender = 8;
  static constexpr std::uint32_t kVoteSlots = 64;

  explicit OneSidedTransport(MPI_Comm comm);  // collective
  ~OneSidedTransport() override;
  OneSidedTransport(const OneSidedTransport&) = delete;
  OneSidedTransport& operator=(const OneSidedTransport&) = delete;

  std::string name() const override { return "one-sided"; }
  void send(int target, const void* bytes, std::size_t size) override;
  std::optional<Envelope> poll() override;
  std::uint32_t vote_slots() const override { return kVoteSlots; }
  void reset_votes(std::uint32_t slot) override;
  void cast_vote(int coordinator, std::uint32_t slot, bool yes) override;
  VoteTally votes(std::uint32_t slot) override;

 private:
  // Window layout, in bytes from the base.
  static constexpr MPI_Aint kTailOffset = 0;
  static constexpr MPI_Aint kVotesOffset = 64;
  MPI_Aint consumed_offset() const;                    // one uint64 per sender
  MPI_Aint queue_offset() const;                       // the notification queue
  MPI_Aint slot_offset(int sender, std::uint64_t seq) const;
  std::uint64_t queue_length() const { return static_cast<std::uint64_t>(ranks_) * kSlotsPerSender; }

  std::optional<Envelope> take_next();
  void wait_for_room(int target);
  void make_progress();
  std::uint64_t* word_at(MPI_Aint offset) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  std::byte* base_ = nullptr;
  int rank_ = 0;
  int ranks_ = 1;
  std::uint64_t head_ = 0;                  // next queue position to read
  std::vector<std::uint64_t> sent_;         // per target
  std::vector<std::uint64_t> known_consumed_;  // per target, as last read
  std::vector<std::uint64_t> consumed_;     // per sender, by this receiver
  std::deque<Envelope> held_;               // arrived while this rank waited for room
  unsigned idle_polls_ = 0;
};

}  // namespace hpcdb
