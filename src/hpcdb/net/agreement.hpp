#pragma once
// Errors that only some ranks see (a malformed line in one rank's part of a
// file, a failed allocation) must still end every rank the same way. Each rank
// runs the step, then all agree: if any failed, every rank throws AgreedFailure
// with the message of the lowest failing rank, so the job ends with one message, no hang.
#include <mpi.h>

#include <exception>
#include <functional>
#include <string>
#include <utility>

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

// A rank's failure held between agreements, for work that should not wait
// for every rank at each step (a batch at a time): hold() runs the work
// unless an earlier part failed, and keeps its failure; agree() is the
// collective that ends every rank if any held one.
class HeldFailure {
 public:
  template <class Work>
  void hold(Work&& work) {
    if (failure_) return;
    try {
      work();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }
  void agree(MPI_Comm comm) { agree_on_failure(comm, std::exchange(failure_, nullptr)); }
  // Throws the held failure, if any (inside a step that is agreed anyway).
  void rethrow() {
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  std::exception_ptr failure_;
};

}  // namespace hpcdb
