#include "hpcdb/python/communicator.hpp"

#include <mpi.h>

#include <cstdlib>

#include "hpcdb/core/error.hpp"

namespace hpcdb::python {
namespace {
constexpr const char* kBetweenCalls = "between hpcdb calls";
}  // namespace

double program_watch_timeout() {
  const char* text = std::getenv("HPCDB_PROGRESS_TIMEOUT");
  if (text == nullptr || *text == '\0') return 10;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (*end != '\0' || !(seconds > 0) || seconds > 1e6) {
    throw UsageError(std::string("HPCDB_PROGRESS_TIMEOUT must be a number of seconds (more than 0, at most 1000000), not '") + text +
                     "'");
  }
  return seconds;
}

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
  const double watch_timeout = fortran_handle ? 0 : program_watch_timeout();
  MPI_Comm comm = MPI_COMM_WORLD;
  if (fortran_handle) {
    comm = MPI_Comm_f2c(static_cast<MPI_Fint>(*fortran_handle));
    if (comm == MPI_COMM_NULL) throw UsageError("comm is MPI.COMM_NULL: give a communicator this rank belongs to");
  }
  cluster_ = std::make_unique<Cluster>(comm);
  if (!fortran_handle) {
    ProgressGuardConfig watch;
    watch.timeout_seconds = watch_timeout;
    watch.operation = "Python program";
    watch.timeout_option = "HPCDB_PROGRESS_TIMEOUT";
    watch.judge_hangs = false;
    watch.observe_calling_thread = false;
    program_watch_ = std::make_unique<ProgressGuard>(*cluster_, watch);
    program_watch_->phase_started(kBetweenCalls);
  }
}

WatchedCall::WatchedCall(const Communicator& comm, const std::string& name) : watch_(comm.program_watch()) {
  if (watch_ != nullptr) watch_->phase_started(name);
}

WatchedCall::~WatchedCall() {
  if (watch_ != nullptr) watch_->phase_started(kBetweenCalls);
}

const Cluster& Communicator::cluster() const {
  if (!cluster_) throw UsageError("this communicator was closed");
  return *cluster_;
}

}  // namespace hpcdb::python
