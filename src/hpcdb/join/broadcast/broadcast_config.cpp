#include "hpcdb/join/broadcast/broadcast_config.hpp"

#include "hpcdb/core/named_values.hpp"
#include "hpcdb/net/udp_socket.hpp"

namespace hpcdb {
namespace {

constexpr NamedValues<BroadcastTransport, 3> kBroadcastTransportNames{
    {{BroadcastTransport::ring, "ring"}, {BroadcastTransport::ibcast, "ibcast"}, {BroadcastTransport::udp, "udp"}}};

}  // namespace

std::string to_string(BroadcastTransport value) { return name_of(value, kBroadcastTransportNames); }
BroadcastTransport parse_broadcast_transport(const std::string& text) {
  return value_named(text, kBroadcastTransportNames, "--transport");
}

void validate(const BroadcastJoinConfig& c) {
  require_option(c.chunk_bytes >= 64 && c.chunk_bytes <= kMaxJoinBufferBytes, "--chunk-size must be between 64 B and 1 GiB");
  require_option(c.depth >= 1 && c.depth <= 64, "--depth must be between 1 and 64");
  require_option(c.udp.phase_packets >= 1 && c.udp.phase_packets <= 4096,
                 "--udp-phase must be between 1 and 4096 datagrams");
  require_option(c.udp.loss >= 0 && c.udp.loss <= 0.9, "--udp-loss must be between 0 and 0.9");
  require_option(c.udp.duplicates >= 0 && c.udp.duplicates <= 1, "--udp-duplicates must be between 0 and 1");
  require_option(c.udp.quiet_ms >= 1 && c.udp.quiet_ms <= 10000, "--udp-quiet-ms must be between 1 and 10000");
  if (!c.udp.address.empty()) ipv4_address(c.udp.address, 0);  // refuses what is no IPv4 address
}

}  // namespace hpcdb
