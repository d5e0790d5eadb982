// GoogleTest under mpiexec: every rank runs every test; only rank 0 prints
// (every rank with HPCDB_TEST_ALL_RANKS=1, to see a failure only one rank
// saw), and the process exits non-zero if any rank saw a failure. MPI starts
// with the thread level HPCDB_TEST_MPI_THREADS names (the build sets it).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

#include "hpcdb/net/cluster.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {
const Cluster* g_cluster = nullptr;
}

int main(int argc, char** argv) {
  hpcdb::Cluster cluster(argc, argv, hpcdb::MpiThreads::HPCDB_TEST_MPI_THREADS);
  hpcdb::testing::g_cluster = &cluster;
  ::testing::InitGoogleTest(&argc, argv);
  if (cluster.rank() != 0 && std::getenv("HPCDB_TEST_ALL_RANKS") == nullptr) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int local = RUN_ALL_TESTS();
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return global;
}
