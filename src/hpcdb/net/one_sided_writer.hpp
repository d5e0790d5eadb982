#pragma once
// Asynchronous one-sided writes with completion tracked per buffer:
// MPI_Rput returns a request that completes when the origin buffer may be
// reused, so a sender recycles exactly the buffer it needs instead of
// flushing every outstanding write. Worker threads share the writer; MPI is
// entered by one thread at a time (MPI_THREAD_SERIALIZED).
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace hpcdb {

class OneSidedWriter {
 public:
  explicit OneSidedWriter(MPI_Win win) : win_(win) {}

  // Starts writing bytes [data, data + bytes) to `target` at byte displacement `disp`.
  MPI_Request put(const void* data, std::size_t bytes, int target, std::uint64_t disp);
  // Waits until the buffer of `request` may be reused (no-op for MPI_REQUEST_NULL).
  void wait(MPI_Request& request);

  std::uint64_t puts() const { return puts_.load(std::memory_order_relaxed); }
  std::uint64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }

 private:
  MPI_Win win_;
  std::mutex mpi_mutex_;
  std::atomic<std::uint64_t> puts_{0};
  std::atomic<std::uint64_t> bytes_{0};
};

}  // namespace hpcdb
