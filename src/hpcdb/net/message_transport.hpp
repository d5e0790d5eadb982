#pragma once
// Small fixed-size messages between ranks, for request/response protocols
// such as the lock manager's: any rank may send to any rank, a receiver
// polls for what arrived (in each sender's order), and a coordinator can
// collect votes in a word that participants add to (+1 yes, +2^32 no).
//
// Two designs sit behind this interface: one-sided mailboxes (MPI RMA
// windows allocated once; see one_sided_transport.hpp) and two-sided
// messages into pre-posted receives (two_sided_transport.hpp).
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace hpcdb {

constexpr std::size_t kMaxMessageBytes = 48;

struct Envelope {
  int origin = 0;  // world rank of the sender
  std::array<std::byte, kMaxMessageBytes> bytes{};
};

// Yes votes count in the low 32 bits of a tally, no votes in the high 32.
struct VoteTally {
  std::uint32_t yes = 0;
  std::uint32_t no = 0;
  static VoteTally of(std::uint64_t word) {
    return {static_cast<std::uint32_t>(word), static_cast<std::uint32_t>(word >> 32)};
  }
};

class MessageTransport {
 public:
  virtual ~MessageTransport() = default;
  virtual std::string name() const = 0;

  // Delivers `bytes` (at most kMaxMessageBytes) to `target`'s poll(). Messages
  // from one sender to one target arrive in the order they were sent.
  virtual void send(int target, const void* bytes, std::size_t size) = 0;
  // Whether send() to `target` would return without waiting for the target
  // to take earlier messages (for messages worth sending only then, such as
  // keep-alives to a peer that may have stopped).
  virtual bool can_send_without_waiting(int /*target*/) { return true; }
  // How long send() may wait for `target` to take earlier messages before it
  // throws Error naming the target (0: without limit). A peer that stopped
  // or hangs leaves its mailbox full; without a limit a sender waits forever.
  virtual void limit_send_waits(std::uint64_t /*nanoseconds*/) {}
  // The next message that arrived, if any; never blocks.
  virtual std::optional<Envelope> poll() = 0;

  // Vote words: the coordinator owns `vote_slots()` of them.
  virtual std::uint32_t vote_slots() const = 0;
  virtual void reset_votes(std::uint32_t slot) = 0;
  virtual void cast_vote(int coordinator, std::uint32_t slot, bool yes) = 0;
  // The coordinator's tally of `slot`; call poll() in between to make progress.
  virtual VoteTally votes(std::uint32_t slot) = 0;
};

enum class TransportKind {
  one_sided,      // shared memory between ranks of a node, MPI RMA between nodes
  one_sided_rma,  // MPI RMA between all ranks (to compare with the above on one node)
  two_sided,      // MPI_Send into pre-posted receives
};

std::string to_string(TransportKind kind);
TransportKind parse_transport_kind(const std::string& text);

class Cluster;
// Collective over the job: every rank creates its end with the same kind.
std::unique_ptr<MessageTransport> make_transport(TransportKind kind, const Cluster& cluster);

}  // namespace hpcdb
