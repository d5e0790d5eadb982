#include "hpcdb/python/communicator.hpp"

#include <mpi.h>

#include "hpcdb/core/error.hpp"

namespace hpcdb::python {

bool initialize_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return false;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    throw Error("MPI_Init_thread failed");
  }
  return true;
}

void finalize_mpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

Communicator::Communicator(std::optional<long long> fortran_handle) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) throw UsageError("MPI is finalized: hpcdb needs it running");
  initialize_mpi();
  MPI_Comm comm = MPI_COMM_WORLD;
  if (fortran_handle) {
    comm = MPI_Comm_f2c(static_cast<MPI_Fint>(*fortran_handle));
    if (comm == MPI_COMM_NULL) throw UsageError("comm is MPI.COMM_NULL: give a communicator this rank belongs to");
  }
  cluster_ = std::make_unique<Cluster>(comm);
}

const Cluster& Communicator::cluster() const {
  if (!cluster_) throw UsageError("this communicator was closed");
  return *cluster_;
}

}  // namespace hpcdb::python
