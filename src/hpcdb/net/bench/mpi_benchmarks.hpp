#pragma once
// The same measurements with plain MPI, as the OSU micro-benchmarks make
// them: one reused buffer per side, receives posted ahead of each window,
// blocking sends and receives for the ping-pong. Collective over `comm`;
// figures valid on rank 0.
#include <mpi.h>

#include <cstddef>

#include "hpcdb/net/bench/network_measures.hpp"

namespace hpcdb {

Throughput mpi_bandwidth(MPI_Comm comm, const WindowPlan& plan);
PingPong mpi_ping_pong(MPI_Comm comm, std::size_t bytes, unsigned iterations, unsigned skip);
// Two threads on rank 0 (needs MPI_THREAD_MULTIPLE), one receiving thread on rank 1.
MixedStreams mpi_mixed_streams(MPI_Comm comm, std::size_t small, std::size_t large, unsigned window, double seconds);
// Rank 0 to ranks 1..receivers: MPI_Bcast over a communicator of those
// ranks, or one MPI_Isend per receiver (windows, then acknowledgements).
Throughput mpi_broadcast(MPI_Comm comm, int receivers, const WindowPlan& plan);
Throughput mpi_multiple_sends(MPI_Comm comm, int receivers, const WindowPlan& plan);

}  // namespace hpcdb
