#include "hpcdb/core/memory.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace hpcdb {
namespace {

TEST(SharedMemoryShortfall, NothingWhenItFits) {
  EXPECT_FALSE(shared_memory_shortfall(4096, "/tmp"));
}

TEST(SharedMemoryShortfall, TellsHowMuchIsNeededAndFree) {
  const std::optional<std::uint64_t> free = free_bytes_in("/tmp");
  ASSERT_TRUE(free);
  const std::optional<std::string> message = shared_memory_shortfall(*free + (std::uint64_t{1} << 30), "/tmp");
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("needs about"), std::string::npos) << *message;
  EXPECT_NE(message->find("free in /tmp (95% of it"), std::string::npos) << *message;
}

TEST(SharedMemoryShortfall, StatesItsMarginWhenLessThanFreeIsNeeded) {
  // Between the usable 95% and all that is free: the message must not claim there is less free than needed.
  const std::optional<std::uint64_t> free = free_bytes_in("/tmp");
  ASSERT_TRUE(free);
  const auto needed = static_cast<std::uint64_t>(0.975 * static_cast<double>(*free));
  const std::optional<std::string> message = shared_memory_shortfall(needed, "/tmp");
  ASSERT_TRUE(message);
  EXPECT_EQ(message->find("has only"), std::string::npos) << *message;
  EXPECT_NE(message->find("more than the"), std::string::npos) << *message;
  EXPECT_NE(message->find("it may use of the"), std::string::npos) << *message;
}

TEST(MemoryShortfall, KeepsATenthOfTheAvailableMemoryFree) {
  const std::uint64_t gib = std::uint64_t{1} << 30;
  EXPECT_FALSE(memory_shortfall(9 * gib, 10 * gib));
  const std::optional<std::string> message = memory_shortfall(9 * gib + 1, 10 * gib);
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("needs about 9.0 GiB of memory on this node, more than the 9.0 GiB it may use of the "
                          "10.0 GiB available (90% of it"),
            std::string::npos)
      << *message;
}

TEST(SharedMemoryShortfall, NothingWhenTheDirectoryCannotBeExamined) {
  EXPECT_FALSE(free_bytes_in("/nonexistent/directory"));
  EXPECT_FALSE(shared_memory_shortfall(~std::uint64_t{0} / 2, "/nonexistent/directory"));
}

TEST(AlignedArray, BorrowedMemoryKeepsItsKeeperAliveAndIsNotUnmapped) {
  auto keeper = std::make_shared<std::vector<std::uint64_t>>(100, 7);
  std::weak_ptr<std::vector<std::uint64_t>> watch = keeper;
  {
    AlignedArray<std::uint64_t> borrowed(keeper->data(), keeper->size(), keeper);
    keeper.reset();
    ASSERT_FALSE(watch.expired());
    EXPECT_EQ(borrowed.size(), 100u);
    EXPECT_EQ(borrowed[99], 7u);
    AlignedArray<std::uint64_t> moved = std::move(borrowed);
    EXPECT_EQ(moved[0], 7u);
  }
  EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace hpcdb
