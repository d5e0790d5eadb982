#include "hpcdb/net/rma_window.hpp"

#include <exception>

namespace hpcdb {

RmaWindow::RmaWindow(void* base, std::size_t bytes, MPI_Comm comm) {
  MPI_Info info;
  MPI_Info_create(&info);
  // Puts land in exclusive ranges, so the target never needs them ordered.
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Info_set(info, "same_disp_unit", "true");
  MPI_Win_create(base, static_cast<MPI_Aint>(bytes), 1, info, comm, &win_);
  MPI_Info_free(&info);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  epoch_open_ = true;
}

void RmaWindow::close_epoch() {
  if (!epoch_open_) return;
  MPI_Win_unlock_all(win_);
  epoch_open_ = false;
}

RmaWindow::~RmaWindow() {
  // Freeing is collective: while an exception unwinds, the peers may never
  // come, so the window is left to the ending job.
  if (std::uncaught_exceptions() > 0) return;
  close_epoch();
  if (win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
}

}  // namespace hpcdb
