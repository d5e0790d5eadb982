#include "hpcdb/table/memory_pool.hpp"

#include <cstdint>
#include <cstdlib>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/sanitizers.hpp"

namespace hpcdb {
namespace {

// The allocator under the engine's pool: the one ARROW_DEFAULT_MEMORY_POOL
// names, as for Arrow's own default pool; without it, Arrow's jemalloc
// where libarrow has it and no sanitizer watches, else the C library's.
// Measured on SF10's join (docs/tables.md): jemalloc keeps the peak lower
// and the phases faster than glibc; mimalloc (Arrow's default) was slower
// than both, presumably as it gives freed pages back to the kernel soon.
arrow::MemoryPool& underlying_pool() {
  if (std::getenv("ARROW_DEFAULT_MEMORY_POOL") != nullptr) return *arrow::default_memory_pool();
  arrow::MemoryPool* jemalloc = nullptr;
  if (!kAllocationsInstrumented && arrow::jemalloc_memory_pool(&jemalloc).ok()) return *jemalloc;
  return *arrow::system_memory_pool();
}

// The underlying pool, a new block's pages populated; the counts are the
// underlying pool's. A grown block is not: builders grow by doubling, and the
// capacity they may never use would be made resident.
class PopulatingPool final : public arrow::MemoryPool {
 public:
  arrow::Status Allocate(std::int64_t size, std::int64_t alignment, std::uint8_t** out) override {
    ARROW_RETURN_NOT_OK(underlying_.Allocate(size, alignment, out));
    populate_pages(*out, static_cast<std::size_t>(size));
    return arrow::Status::OK();
  }
  arrow::Status Reallocate(std::int64_t old_size, std::int64_t new_size, std::int64_t alignment,
                           std::uint8_t** ptr) override {
    return underlying_.Reallocate(old_size, new_size, alignment, ptr);
  }
  void Free(std::uint8_t* buffer, std::int64_t size, std::int64_t alignment) override {
    underlying_.Free(buffer, size, alignment);
  }
  void ReleaseUnused() override { underlying_.ReleaseUnused(); }
  std::int64_t bytes_allocated() const override { return underlying_.bytes_allocated(); }
  std::int64_t max_memory() const override { return underlying_.max_memory(); }
  std::int64_t total_bytes_allocated() const override { return underlying_.total_bytes_allocated(); }
  std::int64_t num_allocations() const override { return underlying_.num_allocations(); }
  std::string backend_name() const override { return underlying_.backend_name(); }

 private:
  arrow::MemoryPool& underlying_ = underlying_pool();
};

}  // namespace

arrow::MemoryPool* table_memory_pool() {
  // Never destroyed: Arrow's buffers may be freed into it while the process
  // exits (Arrow's own pools are never destroyed either).
  static auto* const pool = new PopulatingPool;
  return pool;
}

}  // namespace hpcdb
