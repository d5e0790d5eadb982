// The engine's Arrow pool: blocks come back whole and writable, a grown block
// keeps what it held, and large blocks are resident as they are handed out.
#include "hpcdb/table/memory_pool.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <numeric>
#include <vector>

namespace hpcdb {
namespace {

bool populate_supported() {
  void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const bool supported = p != MAP_FAILED && madvise(p, 4096, 23 /* MADV_POPULATE_WRITE */) == 0;
  if (p != MAP_FAILED) munmap(p, 4096);
  return supported;
}

TEST(TableMemoryPool, AGrownBlockKeepsItsBytesAndIsResident) {
  arrow::MemoryPool* pool = table_memory_pool();
  const std::int64_t small = 100000, large = std::int64_t{16} << 20;
  std::uint8_t* block = nullptr;
  ASSERT_TRUE(pool->Allocate(small, 64, &block).ok());
  std::iota(block, block + small, std::uint8_t{0});
  ASSERT_TRUE(pool->Reallocate(small, large, 64, &block).ok());
  for (std::int64_t i = 0; i < small; ++i) ASSERT_EQ(block[i], static_cast<std::uint8_t>(i));
  if (populate_supported()) {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<std::uintptr_t>(block) + page - 1) / page * page;
    const auto to = (reinterpret_cast<std::uintptr_t>(block) + static_cast<std::uintptr_t>(large)) / page * page;
    std::vector<unsigned char> flags((to - from) / page);
    ASSERT_EQ(mincore(reinterpret_cast<void*>(from), to - from, flags.data()), 0);
    EXPECT_EQ(std::count_if(flags.begin(), flags.end(), [](unsigned char f) { return (f & 1) == 0; }), 0)
        << "pages of the grown block not resident";
  }
  block[large - 1] = 1;
  pool->Free(block, large, 64);
}

}  // namespace
}  // namespace hpcdb
