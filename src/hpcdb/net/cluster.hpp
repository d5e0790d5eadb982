#pragma once
// The MPI job as the engine sees it: world rank and size, and which ranks
// share this rank's node (and therefore its memory).
#include <mpi.h>

#include <string>
#include <vector>

namespace hpcdb {

// The MPI thread level a program asks for: "serialized" (worker threads may
// call MPI, one at a time) suits every operator that calls MPI from one
// thread at a time; "multiple" lets threads call MPI at once (the message
// layer's network threads beside the caller), but Open MPI then refuses its
// point-to-point emulation of one-sided windows (osc pt2pt, used over TCP).
enum class MpiThreads { serialized, multiple };

class Cluster {
 public:
  // Initializes MPI with `threads` unless it is already initialized; the
  // job is MPI_COMM_WORLD.
  Cluster(int& argc, char**& argv, MpiThreads threads = MpiThreads::serialized);
  // Collective over `comm`: the job is the ranks of `comm` (a duplicate of
  // it, so that the engine's messages never meet the caller's), in an MPI
  // the caller initialized and finalizes (a library inside a program that
  // runs MPI itself, e.g. under mpi4py).
  explicit Cluster(MPI_Comm comm);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm world() const { return world_; }
  MPI_Comm node() const { return node_; }
  int node_rank() const { return node_rank_; }
  int node_size() const { return static_cast<int>(node_members_.size()); }
  // Node rank of a world rank, or -1 when it lives on another node.
  int node_rank_of(int world_rank) const { return node_rank_of_[static_cast<std::size_t>(world_rank)]; }
  int node_count() const { return node_count_; }
  // Whether threads may call MPI at the same time (MPI_THREAD_MULTIPLE).
  bool concurrent_mpi() const { return thread_level_ >= MPI_THREAD_MULTIPLE; }

  // Prints "hpcdb: error (rank N): message" and ends the whole job from this
  // rank with `code`: for an error only this rank saw, while its peers may be
  // waiting on it (unwinding would block in collective destructors).
  [[noreturn]] void fail(const std::string& message, int code) const;

 private:
  void describe_job();

  bool owns_mpi_ = false;
  MPI_Comm world_ = MPI_COMM_WORLD;
  bool owns_world_ = false;
  int thread_level_ = MPI_THREAD_SINGLE;
  int rank_ = 0;
  int size_ = 1;
  MPI_Comm node_ = MPI_COMM_NULL;
  int node_rank_ = 0;
  int node_count_ = 1;
  std::vector<int> node_members_;
  std::vector<int> node_rank_of_;
};

}  // namespace hpcdb
