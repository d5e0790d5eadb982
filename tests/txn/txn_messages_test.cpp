#include "hpcdb/txn/txn_messages.hpp"

#include <gtest/gtest.h>

#include <array>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

TEST(TxnMessages, RoundTripEveryField) {
  TxnMessage m;
  m.type = TxnMessageType::lock_reply;
  m.mode = LockMode::SIX;
  m.granted = 0;
  m.reason = DenyReason::died;
  m.vote_slot = 0xabcdef01;
  m.txn = 0x0123456789abcdefull;
  m.lock = 0xfedcba9876543210ull;
  m.queued_ns = 77;
  m.service_ns = 0xffffffff;
  std::array<std::byte, kMaxMessageBytes> bytes{};
  ASSERT_EQ(encode(m, bytes), kTxnMessageBytes);
  const TxnMessage back = decode(bytes);
  EXPECT_EQ(back.type, m.type);
  EXPECT_EQ(back.mode, m.mode);
  EXPECT_EQ(back.granted, m.granted);
  EXPECT_EQ(back.commit, m.commit);
  EXPECT_EQ(back.reason, m.reason);
  EXPECT_EQ(back.vote_slot, m.vote_slot);
  EXPECT_EQ(back.txn, m.txn);
  EXPECT_EQ(back.lock, m.lock);
  EXPECT_EQ(back.queued_ns, m.queued_ns);
  EXPECT_EQ(back.service_ns, m.service_ns);
  EXPECT_EQ(bytes[0], std::byte{2});  // little-endian, type first
  EXPECT_EQ(bytes[24], std::byte{0xef});
}

TEST(TxnMessages, RefusesWhatNoSenderWrites) {
  TxnMessage m;
  m.type = TxnMessageType::lock_request;
  std::array<std::byte, kTxnMessageBytes> good{};
  encode(m, good);
  EXPECT_NO_THROW(decode(good));
  auto bad = good;
  bad[0] = std::byte{0};  // no such type
  EXPECT_THROW(decode(bad), Error);
  bad = good;
  bad[0] = std::byte{10};
  EXPECT_THROW(decode(bad), Error);
  bad = good;
  bad[1] = std::byte{6};  // no such mode
  EXPECT_THROW(decode(bad), Error);
  bad = good;
  bad[2] = std::byte{2};  // a flag that is neither 0 nor 1
  EXPECT_THROW(decode(bad), Error);
  bad = good;
  bad[2] = std::byte{1};
  bad[4] = std::byte{1};  // granted, yet with a deny reason
  EXPECT_THROW(decode(bad), Error);
  bad = good;
  bad[6] = std::byte{1};  // reserved
  EXPECT_THROW(decode(bad), Error);
  EXPECT_THROW(decode(std::span<const std::byte>(good.data(), 10)), Error);
  std::array<std::byte, 8> small{};
  EXPECT_THROW(encode(m, small), Error);
}

}  // namespace
}  // namespace hpcdb
