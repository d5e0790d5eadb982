#pragma once
// The broadcast join's stream over real UDP broadcast, as the 2012 thesis
// ran it on a shared Ethernet segment: each rank in turn is the data server
// for its own S fragment. Its fragment is cut into numbered datagrams
// (16-byte header, then whole tuples), sent in phases of p datagrams to the
// segment's broadcast address, resends of lost ones together with new
// ones. After each phase a synchronization step (over MPI, where the thesis
// used TCP) announces the highest id sent, and every other rank answers
// with the ids up to it that it lacks. Receivers drop duplicates by id, so
// every tuple is joined exactly once, whatever the network lost, repeated
// or reordered. The turn ends when everything was sent and nobody lacks
// anything.
#include <mpi.h>

#include <netinet/in.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/broadcast/udp_broadcast_config.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/duplicated_comm.hpp"
#include "hpcdb/net/udp_socket.hpp"

namespace hpcdb {

struct UdpBroadcastStats {
  std::uint64_t datagrams = 0;         // sent by this rank, first sends
  std::uint64_t resent = 0;            // sent again after a receiver lacked them
  std::uint64_t dropped_on_purpose = 0;  // injected losses
  std::uint64_t duplicates_seen = 0;   // received again and ignored
  std::uint64_t phases = 0;            // synchronization steps, all turns
};

class UdpBroadcastStream {
 public:
  using Encoder = std::function<void(std::size_t first, std::size_t count, std::byte* out)>;
  // Receives a batch of whole values to join; `last` marks the rank's final batch.
  using Consumer = std::function<void(std::span<std::byte> values, bool last)>;

  // Collective. Every rank's fragment (`fragments`, values of `value_bytes`
  // bytes, the same list on every rank); batches hold up to `batch_values`.
  UdpBroadcastStream(const Cluster& cluster, const UdpBroadcastConfig& config, const std::vector<std::uint64_t>& fragments,
                     std::size_t value_bytes, std::size_t batch_values);
  UdpBroadcastStream(const UdpBroadcastStream&) = delete;
  UdpBroadcastStream& operator=(const UdpBroadcastStream&) = delete;

  // Collective: every rank's fragment reaches every rank once.
  void run(const Encoder& encode, const Consumer& consume);

  std::size_t values_per_datagram() const { return per_datagram_; }
  // Values of `value_bytes` bytes one datagram carries.
  static std::size_t datagram_values(std::size_t value_bytes);
  std::string address() const;
  UdpBroadcastStats take_stats();
  std::uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  // The job's nonce keeps another job's datagrams on the same port out.
  struct Header {
    std::uint32_t job;
    std::uint16_t owner;
    std::uint16_t pass;
    std::uint64_t id;
  };
  static_assert(sizeof(Header) == 16);

  void serve(const Encoder& encode, const Consumer& consume, bool last_turn);
  void listen(int owner, const Consumer& consume, bool last_turn);
  void send_datagram(const Encoder& encode, std::uint64_t id, bool resend);
  // Takes the datagrams waiting at the socket: `owner`'s of this turn are
  // kept (full batches joined), the rest dropped (all of them when `owner`
  // is this rank: its own broadcasts).
  void take_waiting(int owner, const Consumer& consume);
  // Listening to `owner`: takes its datagrams until every id below `upto`
  // is in (true) or none came for the quiet time (false).
  bool drain(int owner, std::uint64_t upto, const Consumer& consume);
  // Completes `request` while taking `owner`'s datagrams and doing
  // `spare_work` (true when it did some): a rank waiting in the
  // synchronization step keeps pace with the sender and joins, instead of
  // spinning in MPI on cores the other ranks need.
  void complete(MPI_Request& request, int owner, const Consumer& consume, const std::function<bool()>& spare_work);
  void stash(std::span<const std::byte> values, const Consumer& consume);
  std::uint64_t datagrams_of(int owner) const;

  const Cluster& cluster_;
  UdpBroadcastConfig config_;
  DuplicatedComm comm_;
  std::size_t value_bytes_ = 0;
  std::size_t per_datagram_ = 0;
  std::size_t batch_values_ = 0;
  std::vector<std::uint64_t> fragments_;  // values per rank
  std::unique_ptr<UdpSocket> socket_;
  std::uint32_t job_ = 0;
  sockaddr_in target_{};
  std::vector<std::byte> datagram_;
  MemoryRegion batch_;
  std::size_t batch_fill_ = 0;  // values
  std::vector<bool> received_;  // this turn's ids
  std::uint64_t received_count_ = 0;
  std::uint16_t pass_ = 0;
  std::mt19937_64 faults_;
  UdpBroadcastStats stats_;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace hpcdb
