// The engine's Arrow pool: a new large block is resident as it is handed
// out, a grown block keeps what it held, and alignments and empty blocks
// are the underlying pool's; that pool is jemalloc where libarrow has it.
#include "hpcdb/table/memory_pool.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/sanitizers.hpp"

namespace hpcdb {
namespace {

// Whole pages of [block, block + bytes) that are not resident.
std::ptrdiff_t absent_pages(const std::uint8_t* block, std::int64_t bytes) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto from = (reinterpret_cast<std::uintptr_t>(block) + page - 1) / page * page;
  const auto to = (reinterpret_cast<std::uintptr_t>(block) + static_cast<std::uintptr_t>(bytes)) / page * page;
  std::vector<unsigned char> flags((to - from) / page);
  if (mincore(reinterpret_cast<void*>(from), to - from, flags.data()) != 0) return -1;
  return std::count_if(flags.begin(), flags.end(), [](unsigned char f) { return (f & 1) == 0; });
}

TEST(TableMemoryPool, ANewLargeBlockIsResident) {
  if (!populate_supported()) GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE";
  arrow::MemoryPool* pool = table_memory_pool();
  const std::int64_t bytes = std::int64_t{16} << 20;
  std::uint8_t* block = nullptr;
  ASSERT_TRUE(pool->Allocate(bytes, 64, &block).ok());
  EXPECT_EQ(absent_pages(block, bytes), 0);
  block[bytes - 1] = 1;
  pool->Free(block, bytes, 64);
}

TEST(TableMemoryPool, AGrownBlockKeepsItsBytes) {
  arrow::MemoryPool* pool = table_memory_pool();
  const std::int64_t small = 100000, large = std::int64_t{16} << 20;
  std::uint8_t* block = nullptr;
  ASSERT_TRUE(pool->Allocate(small, 64, &block).ok());
  std::iota(block, block + small, std::uint8_t{0});
  ASSERT_TRUE(pool->Reallocate(small, large, 64, &block).ok());
  for (std::int64_t i = 0; i < small; ++i) ASSERT_EQ(block[i], static_cast<std::uint8_t>(i));
  block[large - 1] = 1;
  ASSERT_TRUE(pool->Reallocate(large, 10, 64, &block).ok());
  for (std::int64_t i = 0; i < 10; ++i) ASSERT_EQ(block[i], static_cast<std::uint8_t>(i));
  pool->Free(block, 10, 64);
}

TEST(TableMemoryPool, AlignmentsAndEmptyBlocksAreTheUnderlyingPools) {
  arrow::MemoryPool* pool = table_memory_pool();
  const std::int64_t before = pool->bytes_allocated();
  std::uint8_t* aligned = nullptr;
  ASSERT_TRUE(pool->Allocate(1 << 20, 4096, &aligned).ok());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 4096, 0u);
  EXPECT_EQ(pool->bytes_allocated(), before + (1 << 20));
  std::uint8_t* empty = nullptr;
  ASSERT_TRUE(pool->Allocate(0, 64, &empty).ok());
  pool->Free(empty, 0, 64);
  pool->Free(aligned, 1 << 20, 4096);
  EXPECT_EQ(pool->bytes_allocated(), before);
}

TEST(TableMemoryPool, IsArrowsJemallocWhereLibarrowHasIt) {
  if (std::getenv("ARROW_DEFAULT_MEMORY_POOL") != nullptr) GTEST_SKIP() << "ARROW_DEFAULT_MEMORY_POOL chooses";
  arrow::MemoryPool* jemalloc = nullptr;
  if (!arrow::jemalloc_memory_pool(&jemalloc).ok()) GTEST_SKIP() << "libarrow has no jemalloc";
  EXPECT_EQ(table_memory_pool()->backend_name(), kAllocationsInstrumented ? "system" : "jemalloc");
}

}  // namespace
}  // namespace hpcdb
