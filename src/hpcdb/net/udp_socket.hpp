#pragma once
// A UDP socket that sends to and receives from a broadcast address: bound
// to a port on every address (several ranks of one host may bind the same
// port, and each gets every broadcast), large kernel buffers, receives
// that never block.
#include <netinet/in.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace hpcdb {

class UdpSocket {
 public:
  // Throws Error naming the port and the system's reason.
  UdpSocket(std::uint16_t port, std::size_t buffer_bytes);
  ~UdpSocket();
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  // Sends one datagram to `address` (IPv4, dotted) at this socket's port.
  void send_to(const sockaddr_in& address, std::span<const std::byte> bytes);
  // One waiting datagram into `out`: its length, or 0 when none is waiting.
  std::size_t receive(std::span<std::byte> out);
  // Waits up to `milliseconds` for a datagram to be waiting.
  bool wait(int milliseconds);

  std::size_t receive_buffer_bytes() const { return receive_buffer_; }
  std::uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::size_t receive_buffer_ = 0;
};

// The IPv4 address `text` at `port`; throws UsageError when it is not one.
sockaddr_in ipv4_address(const std::string& text, std::uint16_t port);

// The broadcast address of this host's first interface that is up, not a
// loopback and can broadcast; empty when there is none.
std::string interface_broadcast_address();

// The largest UDP payload over IPv4: 65535 - 20 (IP) - 8 (UDP) bytes.
constexpr std::size_t kMaxUdpPayload = 65507;

}  // namespace hpcdb
