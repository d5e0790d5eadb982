#include "hpcdb/net/one_sided_writer.hpp"

#include <thread>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

MPI_Request OneSidedWriter::put(const void* data, std::size_t bytes, int target, std::uint64_t disp) {
  if (bytes > static_cast<std::size_t>(INT32_MAX)) throw Error("a single one-sided write is limited to 2 GiB");
  MPI_Request request = MPI_REQUEST_NULL;
  {
    std::lock_guard lock(mpi_mutex_);
    MPI_Rput(data, static_cast<int>(bytes), MPI_BYTE, target, static_cast<MPI_Aint>(disp), static_cast<int>(bytes),
             MPI_BYTE, win_, &request);
  }
  puts_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(bytes, std::memory_order_relaxed);
  return request;
}

void OneSidedWriter::wait(MPI_Request& request) {
  while (request != MPI_REQUEST_NULL) {
    int done = 0;
    {
      std::lock_guard lock(mpi_mutex_);
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
    if (!done) std::this_thread::yield();
  }
}

}  // namespace hpcdb
