#include "hpcdb/core/memory.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <numeric>

namespace hpcdb {
namespace {

// Pages of [data, data + bytes) that are resident (mincore); data page-aligned.
std::size_t resident_pages(void* data, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> flags((bytes + page - 1) / page);
  if (mincore(data, bytes, flags.data()) != 0) return 0;
  return static_cast<std::size_t>(std::count_if(flags.begin(), flags.end(), [](unsigned char f) { return f & 1; }));
}

TEST(PopulatePages, MakesFreshPagesResidentAndKeepsWhatIsWritten) {
  const std::size_t bytes = std::size_t{4} << 20;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  if (!populate_supported()) {
    munmap(p, bytes);
    GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE (Linux 5.14 and later)";
  }
  madvise(p, bytes, MADV_NOHUGEPAGE);  // a first write would fault in 2 MiB where THP is always on
  auto* words = static_cast<std::uint32_t*>(p);
  words[0] = 7;  // one page written before
  ASSERT_EQ(resident_pages(p, bytes), 1u);
  populate_pages(p, bytes);
  EXPECT_EQ(resident_pages(p, bytes), bytes / static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_EQ(words[0], 7u);
  EXPECT_EQ(words[bytes / sizeof(std::uint32_t) - 1], 0u);
  munmap(p, bytes);
}

TEST(PopulatePages, LeavesValuesAloneWhateverTheRangesAlignment) {
  std::vector<std::uint32_t> values(1 << 20);
  std::iota(values.begin(), values.end(), 0u);
  populate_pages(reinterpret_cast<char*>(values.data()) + 3, values.size() * sizeof(std::uint32_t) - 5);
  populate_pages(values.data(), 100);  // too small to bother
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], i);
}

TEST(AssignPopulated, HoldsNCopiesWhenGrowingAndShrinking) {
  std::vector<std::uint32_t> v{1, 2, 3};
  for (const std::size_t n : {std::size_t{100000}, std::size_t{5}, std::size_t{0}, std::size_t{300000}}) {
    assign_populated(v, n, std::uint32_t{0xabcdu});
    ASSERT_EQ(v.size(), n);
    EXPECT_EQ(std::count(v.begin(), v.end(), 0xabcdu), static_cast<std::ptrdiff_t>(n));
  }
}

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
