#pragma once
// The knobs of the broadcast join's UDP transport.
#include <cstdint>
#include <string>

namespace hpcdb {

struct UdpBroadcastConfig {
  std::uint16_t port = 0;       // 0: a free port rank 0 finds
  std::string address;          // empty: 127.255.255.255 on one node, else the interface's broadcast address
  unsigned phase_packets = 64;  // datagrams per phase (new and resent)
  double loss = 0;              // injected: probability that a datagram is not sent
  double duplicates = 0;        // injected: probability that a datagram is sent twice
  int quiet_ms = 20;            // a receiver stops waiting for a phase's datagrams after this long without one
  std::uint64_t seed = 1;       // of the injected faults
};

}  // namespace hpcdb
