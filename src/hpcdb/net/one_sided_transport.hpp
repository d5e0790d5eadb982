#pragma once
// Mailboxes in memory allocated once per rank and written only one-sidedly:
// by peers on the same node with plain stores and CPU atomics into a
// node-shared window (MPI_Win_allocate_shared), by peers on other nodes with
// MPI RMA (MPI_Put, MPI_Fetch_and_op, MPI_Accumulate) on a window over the
// same memory.
//
// Each rank's mailbox holds two queues, written by any number of senders and
// read in position order by the owner, who never scans for news:
//  - node peers take a position with an atomic fetch-and-add on the queue's
//    tail and write their 64-byte frame there, its first word "(position + 1,
//    sender)" stored last with release order: the receiver polls that one
//    cache line, which carries both the notification and the message;
//  - remote peers, whose MPI_Put is not ordered within a frame, put the frame
//    into their own ring of kSlotsPerSender slots, flush, take a position in
//    a second queue with MPI_Fetch_and_op and write "(position + 1, sender)"
//    there with an atomic MPI_Accumulate.
// Entries are valid when they carry the expected position, so they are never
// cleared. The two paths use separate tails and vote words, because CPU
// atomics and MPI (possibly NIC) atomics on one word are not atomic with
// respect to each other.
//
// Flow control: the receiver publishes, per sender, how many messages it has
// consumed; a sender whose ring is full reads that count (rare: protocols
// that wait for replies never have more than a few messages in flight), and
// gives up after limit_send_waits() if the receiver takes nothing.
#include <deque>
#include <optional>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/message_frame.hpp"
#include "hpcdb/net/message_transport.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/rma_window.hpp"

namespace hpcdb {

class OneSidedTransport final : public MessageTransport {
 public:
  static constexpr std::uint32_t kSlotsPerSender = 8;
  static constexpr std::uint32_t kVoteSlots = 64;

  // Collective. With `rma_only`, node peers are reached through MPI RMA too.
  OneSidedTransport(const Cluster& cluster, bool rma_only);
  ~OneSidedTransport() override;
  OneSidedTransport(const OneSidedTransport&) = delete;
  OneSidedTransport& operator=(const OneSidedTransport&) = delete;

  std::string name() const override { return rma_only_ ? "one-sided-rma" : "one-sided"; }
  void send(int target, const void* bytes, std::size_t size) override;
  bool can_send_without_waiting(int target) override;
  void limit_send_waits(std::uint64_t nanoseconds) override { send_wait_limit_ns_ = nanoseconds; }
  std::optional<Envelope> poll() override;
  std::uint32_t vote_slots() const override { return kVoteSlots; }
  void reset_votes(std::uint32_t slot) override;
  void cast_vote(int coordinator, std::uint32_t slot, bool yes) override;
  VoteTally votes(std::uint32_t slot) override;

 private:
  enum Path { node_path = 0, rma_path = 1 };  // which queue and vote word

  struct Layout {
    int ranks;
    MPI_Aint tail(Path p) const { return 64 * p; }  // one cache line each
    MPI_Aint vote(Path p, std::uint32_t slot) const { return 128 + (p * kVoteSlots + slot % kVoteSlots) * 8; }
    MPI_Aint consumed(int sender) const { return 128 + 2 * kVoteSlots * 8 + static_cast<MPI_Aint>(sender) * 8; }
    std::uint64_t queue_length() const { return static_cast<std::uint64_t>(ranks) * kSlotsPerSender; }
    MPI_Aint node_frame(std::uint64_t position) const;  // the node queue holds frames
    MPI_Aint rma_entry(std::uint64_t position) const;   // the remote queue holds entries
    MPI_Aint slot(int sender, std::uint64_t seq) const;
    MPI_Aint bytes() const { return slot(ranks, 0); }
  };

  bool by_shared_memory(int target) const { return !rma_only_ && cluster_.node_rank_of(target) >= 0; }
  std::uint64_t* word(std::byte* base, MPI_Aint offset) const { return reinterpret_cast<std::uint64_t*>(base + offset); }
  std::byte* shared_base(int target) const { return arena_.segment(cluster_.node_rank_of(target)); }
  std::optional<Envelope> take_from_node_queue();
  std::optional<Envelope> take_from_rma_queue();
  Envelope consume(int sender, const MessageFrame& frame);
  std::optional<Envelope> take_any();
  void wait_for_room(int target);
  void refresh_consumed(int target);
  void send_by_shared_memory(int target, MessageFrame& frame);
  void send_by_rma(int target, const MessageFrame& frame, std::uint64_t seq);
  void make_progress();
  void note_idle();

  const Cluster& cluster_;
  bool rma_only_;
  bool any_rma_peer_;
  bool oversubscribed_;  // more ranks on this node than CPUs: an idle poller yields its CPU
  Layout layout_;
  NodeSharedArena arena_;
  std::optional<RmaWindow> window_;
  std::byte* mine_ = nullptr;
  std::uint64_t head_[2] = {0, 0};              // next queue position to read, per path
  std::vector<std::uint64_t> sent_;             // per target
  std::vector<std::uint64_t> known_consumed_;   // per target, as last read
  std::vector<std::uint64_t> consumed_;         // per sender, by this receiver (both paths)
  std::vector<std::uint64_t> rma_received_;     // per sender, on the remote path (its ring position)
  std::deque<Envelope> held_;                   // arrived while this rank waited for room
  unsigned idle_polls_ = 0;
  std::uint64_t send_wait_limit_ns_ = 0;        // 0: a sender waits for room without limit
};

}  // namespace hpcdb
