#include "hpcdb/net/messaging/ring_window.hpp"

#include <cstring>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {

RingWindow::RingWindow(MPI_Comm comm, int ranks, std::size_t ring_bytes)
    : ranks_(ranks), ring_bytes_(ring_bytes), bytes_(bytes_for(ranks, ring_bytes)) {
  MPI_Info info;
  MPI_Info_create(&info);
  // Every record and word is flushed before anything depends on it.
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Info_set(info, "same_disp_unit", "true");
  // The communicator returns errors (the layer set MPI_ERRORS_RETURN on it),
  // so a missing one-sided component is reported, not an abort inside MPI.
  void* base = nullptr;
  const int rc = MPI_Win_allocate(static_cast<MPI_Aint>(bytes_), 1, info, comm, &base, &win_);
  MPI_Info_free(&info);
  int ok = rc == MPI_SUCCESS ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  if (!ok) {
    if (rc == MPI_SUCCESS) MPI_Win_free(&win_);
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (rc != MPI_SUCCESS) MPI_Error_string(rc, text, &length);
    throw AgreedFailure("MPI could not create the message layer's window of " + format_bytes(static_cast<double>(bytes_)) +
                (length > 0 ? " (" + std::string(text, static_cast<std::size_t>(length)) + ")" : std::string()) +
                ": with network threads it needs a one-sided component that supports MPI_THREAD_MULTIPLE "
                "(Open MPI's osc pt2pt, used over TCP, does not: select osc ucx, or run with --net-threads 0)",
                        1);
  }
  base_ = static_cast<std::byte*>(base);
  std::memset(base_, 0, bytes_);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  MPI_Barrier(comm);  // every window is zeroed before anyone writes
}

RingWindow::~RingWindow() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

}  // namespace hpcdb
