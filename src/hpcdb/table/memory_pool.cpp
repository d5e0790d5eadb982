#include "hpcdb/table/memory_pool.hpp"

#include <cstdint>

#include "hpcdb/core/memory.hpp"

namespace hpcdb {
namespace {

// Arrow's system pool, a new block's pages populated; the counts are the
// system pool's. A grown block is not: builders grow by doubling, and the
// capacity they may never use would be made resident.
class PopulatingPool final : public arrow::MemoryPool {
 public:
  arrow::Status Allocate(std::int64_t size, std::int64_t alignment, std::uint8_t** out) override {
    ARROW_RETURN_NOT_OK(system().Allocate(size, alignment, out));
    populate_pages(*out, static_cast<std::size_t>(size));
    return arrow::Status::OK();
  }
  arrow::Status Reallocate(std::int64_t old_size, std::int64_t new_size, std::int64_t alignment,
                           std::uint8_t** ptr) override {
    return system().Reallocate(old_size, new_size, alignment, ptr);
  }
  void Free(std::uint8_t* buffer, std::int64_t size, std::int64_t alignment) override {
    system().Free(buffer, size, alignment);
  }
  void ReleaseUnused() override { system().ReleaseUnused(); }
  std::int64_t bytes_allocated() const override { return system().bytes_allocated(); }
  std::int64_t max_memory() const override { return system().max_memory(); }
  std::int64_t total_bytes_allocated() const override { return system().total_bytes_allocated(); }
  std::int64_t num_allocations() const override { return system().num_allocations(); }
  std::string backend_name() const override { return system().backend_name(); }

 private:
  static arrow::MemoryPool& system() { return *arrow::system_memory_pool(); }
};

}  // namespace

arrow::MemoryPool* table_memory_pool() {
  // Never destroyed: Arrow's buffers may be freed into it while the process
  // exits (Arrow's own pools are never destroyed either).
  static auto* const pool = new PopulatingPool;
  return pool;
}

}  // namespace hpcdb
