#pragma once
// A duplicate of a communicator, owned: its own message space for one
// component's traffic. Duplicating is collective, so components that must
// not bring the ranks together when they run duplicate once at set-up.
#include <mpi.h>

#include <exception>

namespace hpcdb {

class DuplicatedComm {
 public:
  explicit DuplicatedComm(MPI_Comm of) { MPI_Comm_dup(of, &comm_); }
  ~DuplicatedComm() {
    if (std::uncaught_exceptions() > 0) return;  // peers may never come: the ending job cleans up
    MPI_Comm_free(&comm_);
  }
  DuplicatedComm(const DuplicatedComm&) = delete;
  DuplicatedComm& operator=(const DuplicatedComm&) = delete;

  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace hpcdb
