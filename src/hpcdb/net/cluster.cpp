#include "hpcdb/net/cluster.hpp"

#include <cstdlib>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/standard_output.hpp"

namespace hpcdb {

Cluster::Cluster(int& argc, char**& argv, MpiThreads threads) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // Open MPI's one-sided component for a one-rank job (with or without
    // mpirun) is UCX, which some installations exclude by default; keep it
    // selectable unless the user chose the components.
    setenv("OMPI_MCA_osc", "ucx,sm,rdma,pt2pt", 0);
    const int wanted = threads == MpiThreads::multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, wanted, &provided);
    owns_mpi_ = true;
    if (provided < MPI_THREAD_SERIALIZED) {
      throw Error("the MPI library does not support threads calling MPI one at a time (MPI_THREAD_SERIALIZED)");
    }
  }
  describe_job();
}

Cluster::Cluster(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw Error("MPI is not initialized: initialize it before joining a communicator");
  MPI_Comm_dup(comm, &world_);
  owns_world_ = true;
  describe_job();
}

void Cluster::describe_job() {
  MPI_Query_thread(&thread_level_);
  MPI_Comm_rank(world_, &rank_);
  MPI_Comm_size(world_, &size_);
  MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_);
  MPI_Comm_rank(node_, &node_rank_);
  int members = 0;
  MPI_Comm_size(node_, &members);
  node_members_.resize(static_cast<std::size_t>(members));
  MPI_Allgather(&rank_, 1, MPI_INT, node_members_.data(), 1, MPI_INT, node_);

  node_rank_of_.assign(static_cast<std::size_t>(size_), -1);
  for (int i = 0; i < members; ++i) node_rank_of_[static_cast<std::size_t>(node_members_[static_cast<std::size_t>(i)])] = i;

  const int leader = node_rank_ == 0 ? 1 : 0;
  MPI_Allreduce(&leader, &node_count_, 1, MPI_INT, MPI_SUM, world_);
}

Cluster::~Cluster() {
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  if (owns_world_) MPI_Comm_free(&world_);
  if (owns_mpi_) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
}

void Cluster::fail(const std::string& message, int code) const {
  write_error_line("hpcdb: error (rank " + std::to_string(rank_) + "): " + message);
  MPI_Abort(world_, code);
  std::_Exit(code);
}

}  // namespace hpcdb
