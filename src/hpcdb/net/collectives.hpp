#pragma once
// Typed wrappers over the MPI collectives the operators use.
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace hpcdb {

template <class T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<std::uint64_t>() { return MPI_UINT64_T; }
template <>
inline MPI_Datatype mpi_type<std::int64_t>() { return MPI_INT64_T; }
template <>
inline MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }
template <>
inline MPI_Datatype mpi_type<int>() { return MPI_INT; }
template <>
inline MPI_Datatype mpi_type<unsigned>() { return MPI_UNSIGNED; }

template <class T>
T allreduce(T value, MPI_Op op, MPI_Comm comm) {
  T result{};
  MPI_Allreduce(&value, &result, 1, mpi_type<T>(), op, comm);
  return result;
}

template <class T>
void allreduce_in_place(std::vector<T>& values, MPI_Op op, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), mpi_type<T>(), op, comm);
}

// Element-wise exclusive prefix sum over ranks (rank 0 gets zeros).
template <class T>
std::vector<T> exclusive_scan_sum(const std::vector<T>& values, MPI_Comm comm) {
  std::vector<T> inclusive(values.size());
  MPI_Scan(values.data(), inclusive.data(), static_cast<int>(values.size()), mpi_type<T>(), MPI_SUM, comm);
  for (std::size_t i = 0; i < values.size(); ++i) inclusive[i] -= values[i];
  return inclusive;
}

template <class T>
std::vector<T> allgather(T value, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<T> result(static_cast<std::size_t>(size));
  MPI_Allgather(&value, 1, mpi_type<T>(), result.data(), 1, mpi_type<T>(), comm);
  return result;
}

// Maximum and mean of a per-rank value.
struct Spread {
  double max = 0;
  double mean = 0;
};
inline Spread spread_over_ranks(double value, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const double max = allreduce(value, MPI_MAX, comm);
  const double sum = allreduce(value, MPI_SUM, comm);
  return {max, sum / size};
}

}  // namespace hpcdb
