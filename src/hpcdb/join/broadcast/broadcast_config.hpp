#pragma once
// The broadcast join's options (what the command line sets), checked by validate().
#include <cstddef>
#include <string>

#include "hpcdb/join/broadcast/udp_broadcast_config.hpp"
#include "hpcdb/join/join_config.hpp"

namespace hpcdb {

// ring: point-to-point chunks forwarded along the ring of ranks (the
// default: every link carries every chunk once); ibcast: MPI_Ibcast, the
// tree MPI picks; udp: real UDP broadcast on the ranks' network segment.
enum class BroadcastTransport { ring, ibcast, udp };

std::string to_string(BroadcastTransport value);  // ring, ibcast, udp
BroadcastTransport parse_broadcast_transport(const std::string& text);

struct BroadcastJoinConfig : JoinBasics {
  BroadcastTransport transport = BroadcastTransport::ring;
  std::size_t chunk_bytes = 1 << 20;  // bytes per broadcast chunk of S (udp: per joined batch)
  unsigned depth = 2;                 // ring, ibcast: chunks in flight ahead of the one being joined
  UdpBroadcastConfig udp;
};

void validate(const BroadcastJoinConfig& config);

}  // namespace hpcdb
