#pragma once
// Gathers to one rank, typed: every rank's values (counts may differ) or
// text, in rank order, at `root` (empty elsewhere).
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {

// Every rank's count at every rank, and the offsets of a concatenation in rank order.
struct GatherLayout {
  std::vector<int> counts;
  std::vector<int> offsets;
  std::size_t total = 0;
};

inline GatherLayout gather_layout(std::size_t mine, MPI_Comm comm) {
  const std::vector<std::uint64_t> all = allgather<std::uint64_t>(mine, comm);
  GatherLayout layout;
  for (const std::uint64_t count : all) {
    if (layout.total + count > static_cast<std::uint64_t>(INT32_MAX)) {
      throw Error("too much data to gather at one rank (over 2^31 elements)");
    }
    layout.offsets.push_back(static_cast<int>(layout.total));
    layout.counts.push_back(static_cast<int>(count));
    layout.total += count;
  }
  return layout;
}

// Every rank's values at `root`, concatenated in rank order; `layout` tells
// where each rank's part begins.
template <class T>
std::vector<T> gather_values(const std::vector<T>& mine, int root, MPI_Comm comm, GatherLayout* layout = nullptr) {
  const GatherLayout parts = gather_layout(mine.size(), comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<T> all(rank == root ? parts.total : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), mpi_type<T>(), all.data(), parts.counts.data(),
              parts.offsets.data(), mpi_type<T>(), root, comm);
  if (layout) *layout = parts;
  return all;
}

// Every rank's text at `root`, by rank.
inline std::vector<std::string> gather_texts(const std::string& mine, int root, MPI_Comm comm) {
  const GatherLayout parts = gather_layout(mine.size(), comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string all(rank == root ? parts.total : 0, '\0');
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), parts.counts.data(),
              parts.offsets.data(), MPI_CHAR, root, comm);
  std::vector<std::string> texts;
  if (rank != root) return texts;
  for (std::size_t r = 0; r < parts.counts.size(); ++r) {
    texts.push_back(all.substr(static_cast<std::size_t>(parts.offsets[r]), static_cast<std::size_t>(parts.counts[r])));
  }
  return texts;
}

}  // namespace hpcdb
