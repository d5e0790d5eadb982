#pragma once
// The ranks a Python call runs on: MPI_COMM_WORLD, or a communicator the
// program made with mpi4py (passed as its Fortran handle, comm.py2f(), so
// that the package needs no mpi4py). MPI is initialized here when no one
// has done it (a program without mpi4py) and finalized at the interpreter's
// exit by whoever initialized it.
//
// The job's communicator also watches the whole program (net/progress_guard):
// a rank that stops or freezes ends the job with a message naming it, also
// when it stops between two calls, where the others would otherwise wait in
// the next call's first collective forever. Silence is judged only (a rank
// may compute for as long as it likes between calls; its watchdog thread
// beats regardless); each call's own guard judges hangs within the call.
#include <memory>
#include <optional>
#include <string>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/progress_guard.hpp"

namespace hpcdb::python {

// Initializes MPI (threads: serialized) unless it is; true when this call did.
bool initialize_mpi();
// Finalizes MPI unless it is finalized already.
void finalize_mpi();

class Communicator {
 public:
  // Collective over the communicator; none: MPI_COMM_WORLD.
  explicit Communicator(std::optional<long long> fortran_handle);
  const Cluster& cluster() const;
  int rank() const { return cluster().rank(); }
  int size() const { return cluster().size(); }
  // Frees the engine's duplicate of the communicator (collective; before MPI_Finalize).
  void close() {
    program_watch_.reset();
    cluster_.reset();
  }
  // The watch over the whole program (the job's communicator only), or null.
  ProgressGuard* program_watch() const { return program_watch_.get(); }

 private:
  std::unique_ptr<Cluster> cluster_;
  std::unique_ptr<ProgressGuard> program_watch_;
};

// Seconds of silence after which the program watch ends the job:
// HPCDB_PROGRESS_TIMEOUT, 10 when unset.
double program_watch_timeout();

// While it lives, the program watch reports this rank as inside the call
// `name` (its phase in a message naming a silent rank), then between calls.
class WatchedCall {
 public:
  WatchedCall(const Communicator& comm, const std::string& name);
  ~WatchedCall();
  WatchedCall(const WatchedCall&) = delete;
  WatchedCall& operator=(const WatchedCall&) = delete;

 private:
  ProgressGuard* watch_;
};

}  // namespace hpcdb::python
