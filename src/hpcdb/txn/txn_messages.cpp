#include "hpcdb/txn/txn_messages.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

// Layout (little-endian): 0 type, 1 mode, 2 granted, 3 commit, 4 reason,
// 5-7 zero, 8 vote_slot u32, 12 queued_ns u32, 16 service_ns u32, 20-23 zero,
// 24 txn u64, 32 lock u64.
template <class T>
void put(std::span<std::byte> out, std::size_t at, T v) {
  const auto bits = static_cast<std::uint64_t>(v);
  for (std::size_t i = 0; i < sizeof(T); ++i) out[at + i] = static_cast<std::byte>((bits >> (8 * i)) & 0xff);
}

template <class T>
T get(std::span<const std::byte> in, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<std::uint64_t>(in[at + i]) << (8 * i);
  return static_cast<T>(v);
}

[[noreturn]] void malformed(const std::string& what) { throw Error("malformed transaction message: " + what); }

}  // namespace

std::size_t encode(const TxnMessage& m, std::span<std::byte> out) {
  if (out.size() < kTxnMessageBytes) {
    throw Error("a transaction message needs " + std::to_string(kTxnMessageBytes) + " bytes");
  }
  std::fill(out.begin(), out.begin() + kTxnMessageBytes, std::byte{0});
  put(out, 0, static_cast<std::uint8_t>(m.type));
  put(out, 1, static_cast<std::uint8_t>(m.mode));
  put(out, 2, m.granted);
  put(out, 3, m.commit);
  put(out, 4, static_cast<std::uint8_t>(m.reason));
  put(out, 8, m.vote_slot);
  put(out, 12, m.queued_ns);
  put(out, 16, m.service_ns);
  put(out, 24, m.txn);
  put(out, 32, m.lock);
  return kTxnMessageBytes;
}

TxnMessage decode(std::span<const std::byte> in) {
  if (in.size() < kTxnMessageBytes) {
    malformed(std::to_string(in.size()) + " bytes, a message has " + std::to_string(kTxnMessageBytes));
  }
  TxnMessage m;
  const auto type = get<std::uint8_t>(in, 0);
  if (type < 1 || type > static_cast<std::uint8_t>(TxnMessageType::keep_alive)) malformed("type " + std::to_string(type));
  m.type = static_cast<TxnMessageType>(type);
  const auto mode = get<std::uint8_t>(in, 1);
  if (mode >= kLockModes) malformed("lock mode " + std::to_string(mode));
  m.mode = static_cast<LockMode>(mode);
  m.granted = get<std::uint8_t>(in, 2);
  m.commit = get<std::uint8_t>(in, 3);
  if (m.granted > 1 || m.commit > 1) malformed("a flag other than 0 or 1");
  const auto reason = get<std::uint8_t>(in, 4);
  if (reason >= kDenyReasons || (m.granted == 1 && reason != 0)) malformed("deny reason " + std::to_string(reason));
  m.reason = static_cast<DenyReason>(reason);
  for (std::size_t i : {5, 6, 7, 20, 21, 22, 23}) {
    if (in[i] != std::byte{0}) malformed("reserved byte " + std::to_string(i) + " is not zero");
  }
  m.vote_slot = get<std::uint32_t>(in, 8);
  m.queued_ns = get<std::uint32_t>(in, 12);
  m.service_ns = get<std::uint32_t>(in, 16);
  m.txn = get<std::uint64_t>(in, 24);
  m.lock = get<std::uint64_t>(in, 32);
  return m;
}

void send_message(MessageTransport& t, int target, const TxnMessage& m) {
  std::array<std::byte, kTxnMessageBytes> bytes;
  encode(m, bytes);
  t.send(target, bytes.data(), bytes.size());
}

}  // namespace hpcdb
