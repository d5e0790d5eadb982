#pragma once
// The baseline a user would write with MPI: count the rows per destination,
// exchange the counts (MPI_Alltoall), partition into one send buffer
// ordered by destination, move everything with one MPI_Alltoallv, then hand
// each source's block to the consumer. Nothing overlaps: the network waits
// for the partitioning and the consumer for the network. The partitioning
// uses the same write-combining kernel as the streaming designs.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/shuffle.hpp"

namespace hpcdb {

class AlltoallvShuffle final : public Shuffle {
 public:
  // Collective. Allocates and touches send and receive buffers for an
  // exchange of `expected_rows` rows over all ranks (a receive buffer that
  // turns out too small grows during the exchange).
  AlltoallvShuffle(const Cluster& cluster, const ShuffleConfig& config, std::uint64_t expected_rows);
  ~AlltoallvShuffle() override;
  AlltoallvShuffle(const AlltoallvShuffle&) = delete;
  AlltoallvShuffle& operator=(const AlltoallvShuffle&) = delete;

  ShuffleDesign design() const override { return ShuffleDesign::mpi_alltoallv; }
  ShuffleRunStats run(RowSpan input, ShuffleConsumer& consumer) override;
  ShuffleResources resources() const override;

 private:
  // Rows per (thread, destination) of this rank's input.
  std::vector<std::vector<std::uint64_t>> count(RowSpan input) const;
  void scatter(RowSpan input, const std::vector<std::vector<std::uint64_t>>& counts,
               const std::vector<std::uint64_t>& send_offsets);
  void exchange(const std::vector<std::uint64_t>& send_counts, const std::vector<std::uint64_t>& send_offsets,
                const std::vector<std::uint64_t>& receive_counts, const std::vector<std::uint64_t>& receive_offsets);
  void consume(const std::vector<std::uint64_t>& receive_counts, const std::vector<std::uint64_t>& receive_offsets,
               ShuffleConsumer& consumer) const;

  const Cluster& cluster_;
  ShuffleConfig config_;
  MPI_Datatype row_type_ = MPI_DATATYPE_NULL;
  AlignedArray<std::byte> send_;
  AlignedArray<std::byte> receive_;
};

}  // namespace hpcdb
