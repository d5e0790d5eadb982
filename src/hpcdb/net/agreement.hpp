#pragma once
// Errors that only some ranks see (a malformed line in one rank's part of a
// file, a failed allocation) must still end every rank the same way. Each rank
// runs the step, then all agree: if any failed, every rank throws AgreedFailure
// with the message of the lowest failing rank, so the job ends with one message, no hang.
#include <mpi.h>

#include <exception>
#include <functional>
#include <string>

namespace hpcdb {

void agree_on_failure(MPI_Comm comm, std::exception_ptr local_failure);

// Collective: the complaint of the lowest rank that has one (a non-empty
// `mine`), at every rank; empty when no rank complains.
std::string first_complaint(MPI_Comm comm, const std::string& mine);

// Runs step() on every rank and then agrees on its outcome.
inline void run_collectively(MPI_Comm comm, const std::function<void()>& step) {
  std::exception_ptr failure;
  try {
    step();
  } catch (...) {
    failure = std::current_exception();
  }
  agree_on_failure(comm, failure);
}

}  // namespace hpcdb
