#pragma once
// An MPI window over memory the caller owns (MPI_Win_create on the world
// communicator), opened for passive-target access to all ranks at once
// (MPI_Win_lock_all) for as long as the object lives. Creation and
// destruction are collective.
#include <mpi.h>

#include <cstddef>

namespace hpcdb {

class RmaWindow {
 public:
  RmaWindow(void* base, std::size_t bytes, MPI_Comm comm);
  ~RmaWindow();
  RmaWindow(const RmaWindow&) = delete;
  RmaWindow& operator=(const RmaWindow&) = delete;

  MPI_Win handle() const { return win_; }
  // Completes all puts this rank issued (remotely) and closes the epoch.
  void close_epoch();

 private:
  MPI_Win win_ = MPI_WIN_NULL;
  bool epoch_open_ = false;
};

}  // namespace hpcdb
