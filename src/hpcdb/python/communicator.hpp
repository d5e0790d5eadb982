#pragma once
// The ranks a Python call runs on: MPI_COMM_WORLD, or a communicator the
// program made with mpi4py (passed as its Fortran handle, comm.py2f(), so
// that the package needs no mpi4py). MPI is initialized here when no one
// has done it (a program without mpi4py) and finalized at the interpreter's
// exit by whoever initialized it.
#include <memory>
#include <optional>

#include "hpcdb/net/cluster.hpp"

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
  void close() { cluster_.reset(); }

 private:
  std::unique_ptr<Cluster> cluster_;
};

}  // namespace hpcdb::python
