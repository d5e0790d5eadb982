#include "hpcdb/net/udp_socket.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

std::string system_reason() { return std::strerror(errno); }

// Root may exceed the system's buffer limit (net.core.rmem_max); others get
// what the limit allows.
void set_buffer(int fd, int option, int forced_option, std::size_t bytes) {
  const int value = static_cast<int>(bytes);
  if (setsockopt(fd, SOL_SOCKET, forced_option, &value, sizeof value) != 0) {
    setsockopt(fd, SOL_SOCKET, option, &value, sizeof value);
  }
}

}  // namespace

UdpSocket::UdpSocket(std::uint16_t port, std::size_t buffer_bytes) : port_(port) {
  fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw Error("cannot open a UDP socket: " + system_reason());
  const int on = 1;
  setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (setsockopt(fd_, SOL_SOCKET, SO_BROADCAST, &on, sizeof on) != 0) {
    const std::string reason = system_reason();
    close(fd_);
    throw Error("cannot allow broadcasts on a UDP socket: " + reason);
  }
  set_buffer(fd_, SO_RCVBUF, SO_RCVBUFFORCE, buffer_bytes);
  set_buffer(fd_, SO_SNDBUF, SO_SNDBUFFORCE, buffer_bytes);
  int granted = 0;
  socklen_t length = sizeof granted;
  getsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &granted, &length);
  receive_buffer_ = static_cast<std::size_t>(granted);
  sockaddr_in any{};
  any.sin_family = AF_INET;
  any.sin_port = htons(port);
  any.sin_addr.s_addr = htonl(INADDR_ANY);
  if (bind(fd_, reinterpret_cast<const sockaddr*>(&any), sizeof any) != 0) {
    const std::string reason = system_reason();
    close(fd_);
    throw Error("cannot bind UDP port " + std::to_string(port) + ": " + reason + "; choose another with --udp-port");
  }
  socklen_t bound_length = sizeof any;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&any), &bound_length);
  port_ = ntohs(any.sin_port);  // the port the system chose for port 0
}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) close(fd_);
}

void UdpSocket::send_to(const sockaddr_in& address, std::span<const std::byte> bytes) {
  for (;;) {
    const ssize_t sent = sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    if (sent == static_cast<ssize_t>(bytes.size())) return;
    if (sent < 0 && (errno == EINTR || errno == ENOBUFS)) continue;  // a full queue: the datagram was not taken
    throw Error("cannot send a UDP datagram to " + std::string(inet_ntoa(address.sin_addr)) + ": " +
                (sent < 0 ? system_reason() : "sent in part"));
  }
}

std::size_t UdpSocket::receive(std::span<std::byte> out) {
  for (;;) {
    const ssize_t got = recv(fd_, out.data(), out.size(), MSG_DONTWAIT);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    if (errno == EINTR) continue;
    throw Error("cannot receive a UDP datagram: " + system_reason());
  }
}

bool UdpSocket::wait(int milliseconds) {
  pollfd p{fd_, POLLIN, 0};
  const int ready = poll(&p, 1, milliseconds);
  return ready > 0 && (p.revents & POLLIN) != 0;
}

sockaddr_in ipv4_address(const std::string& text, std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  if (inet_pton(AF_INET, text.c_str(), &address.sin_addr) != 1) {
    throw UsageError("'" + text + "' is not an IPv4 address");
  }
  return address;
}

std::string interface_broadcast_address() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return {};
  std::string found;
  for (const ifaddrs* i = list; i != nullptr && found.empty(); i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET || i->ifa_netmask == nullptr) continue;
    if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0 || (i->ifa_flags & IFF_BROADCAST) == 0) continue;
    // From the address and its mask, not ifa_broadaddr: an address added
    // without a broadcast address ('ip addr add A/24' without 'brd +')
    // reports the interface's own address there.
    const std::uint32_t address = ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr);
    const std::uint32_t mask = ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_netmask)->sin_addr.s_addr);
    if (mask == ~std::uint32_t{0}) continue;  // a /32: no segment to broadcast on
    in_addr broadcast{};
    broadcast.s_addr = htonl((address & mask) | ~mask);
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &broadcast, text, sizeof text);
    found = text;
  }
  freeifaddrs(list);
  return found;
}

}  // namespace hpcdb
