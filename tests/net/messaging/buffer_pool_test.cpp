#include "hpcdb/net/messaging/pooled_buffer.hpp"

#include <gtest/gtest.h>

#include <set>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/messaging/message_header.hpp"

namespace hpcdb {
namespace {

TEST(BufferPool, SizeClassesArePowersOfTwoHoldingHeaderAndPadding) {
  EXPECT_EQ(BufferPool::class_bytes(BufferPool::class_of(0)), 64u);
  EXPECT_EQ(BufferPool::class_bytes(BufferPool::class_of(32)), 64u);  // 32 + 32
  EXPECT_EQ(BufferPool::class_bytes(BufferPool::class_of(33)), 128u);  // padded to 40 + 32
  for (std::size_t payload : {1ul, 7ul, 100ul, 4064ul, 4065ul, 65536ul, 1000000ul}) {
    const std::size_t bytes = BufferPool::class_bytes(BufferPool::class_of(payload));
    EXPECT_GE(bytes, ring_record_bytes(payload)) << payload;
    EXPECT_LT(bytes / 2, std::max<std::size_t>(64, ring_record_bytes(payload))) << payload;
    EXPECT_EQ(bytes & (bytes - 1), 0u) << payload;
  }
}

TEST(BufferPool, ReusesTheMostRecentlyReleasedBufferOfAClass) {
  BufferPool pool(1 << 20, 64 << 20, 1);
  PooledBlock a = pool.acquire(2000, BufferPool::OverLimit::wait);  // all in the 2 KiB class
  PooledBlock b = pool.acquire(2000, BufferPool::OverLimit::wait);
  std::byte* first = a.memory();
  std::byte* second = b.memory();
  EXPECT_NE(first, second);
  a.reset();
  b.reset();  // released last: handed out first
  EXPECT_EQ(pool.acquire(1500, BufferPool::OverLimit::wait).memory(), second);
  PooledBlock c = pool.acquire(1100, BufferPool::OverLimit::wait);
  PooledBlock d = pool.acquire(1100, BufferPool::OverLimit::wait);
  EXPECT_EQ(c.memory(), second);
  EXPECT_EQ(d.memory(), first);
  EXPECT_EQ(pool.stats().reused, 3u);
  EXPECT_EQ(pool.stats().acquired, 5u);
  PooledBlock other = pool.acquire(5000, BufferPool::OverLimit::wait);  // another class: a new buffer
  EXPECT_NE(other.memory(), first);
  EXPECT_NE(other.memory(), second);
}

TEST(BufferPool, PayloadFollowsTheHeaderAndIsAligned) {
  BufferPool pool(4096, 1 << 20, 1);
  PooledBlock a = pool.acquire(100, BufferPool::OverLimit::wait);
  EXPECT_EQ(a.payload(), a.memory() + sizeof(MessageHeader));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.memory()) % 64, 0u);
  EXPECT_EQ(a.capacity(), 256u);
}

TEST(BufferPool, RejectsMessagesAboveTheLargest) {
  BufferPool pool(4096, 1 << 20, 1);
  EXPECT_NO_THROW(pool.acquire(4096, BufferPool::OverLimit::wait));
  EXPECT_THROW(pool.acquire(4097, BufferPool::OverLimit::wait), UsageError);
}

TEST(BufferPool, KeepsToItsLimitByFreeingIdleBuffersFirst) {
  BufferPool pool(8192, 16384, 0.2);  // room for two 8 KiB buffers
  PooledBlock a = pool.acquire(8100, BufferPool::OverLimit::wait);
  PooledBlock b = pool.acquire(8100, BufferPool::OverLimit::wait);
  EXPECT_EQ(pool.stats().bytes_held, 16384u);
  EXPECT_FALSE(pool.acquire(100, BufferPool::OverLimit::give_up));
  EXPECT_TRUE(pool.acquire(100, BufferPool::OverLimit::overdraw));  // and back to its class's stack
  EXPECT_THROW(pool.acquire(1000, BufferPool::OverLimit::wait), Error);  // nobody releases within 0.2 s
  b.reset();  // idle now: freed to make room for another class
  PooledBlock c = pool.acquire(1000, BufferPool::OverLimit::give_up);
  EXPECT_TRUE(c);
  EXPECT_EQ(pool.stats().bytes_held, 8192u + 2048u);  // a and c: the idle ones were freed
}

TEST(BufferPool, AWaitingAcquireTakesWhatAnotherThreadReleases) {
  BufferPool pool(8192, 8192, 10);
  PooledBlock a = pool.acquire(8100, BufferPool::OverLimit::wait);
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    a.reset();
  });
  PooledBlock b = pool.acquire(8100, BufferPool::OverLimit::wait);
  releaser.join();
  EXPECT_TRUE(b);
}

}  // namespace
}  // namespace hpcdb
