#include "hpcdb/table/rank_exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "hpcdb/core/error.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kMessageBytes = std::uint64_t{256} << 20;
constexpr int kBlockTag = 3501;

std::vector<std::uint64_t> exclusive_offsets(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::uint64_t> offsets(sizes.size() + 1, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) offsets[i + 1] = offsets[i] + sizes[i];
  return offsets;
}

}  // namespace

ReceivedBlocks exchange_blocks(const Cluster& cluster, const std::vector<std::span<const std::byte>>& blocks,
                               std::uint64_t& bytes_sent) {
  const MPI_Comm world = cluster.world();
  const int ranks = cluster.size(), me = cluster.rank();
  if (blocks.size() != static_cast<std::size_t>(ranks)) throw Error("exchange_blocks: one block per rank expected");
  std::vector<std::uint64_t> send_sizes(blocks.size()), receive_sizes(blocks.size());
  for (std::size_t d = 0; d < blocks.size(); ++d) send_sizes[d] = blocks[d].size();
  MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, receive_sizes.data(), 1, MPI_UINT64_T, world);
  ReceivedBlocks received;
  received.offsets = exclusive_offsets(receive_sizes);
  received.bytes.resize(received.offsets.back());

  std::vector<MPI_Request> requests;
  // Receives first, from every rank in the order it sends.
  for (int k = 1; k < ranks; ++k) {
    const int source = (me - k + ranks) % ranks;
    std::byte* at = received.bytes.data() + received.offsets[static_cast<std::size_t>(source)];
    for (std::uint64_t done = 0; done < receive_sizes[static_cast<std::size_t>(source)]; done += kMessageBytes) {
      const auto n = static_cast<int>(std::min(kMessageBytes, receive_sizes[static_cast<std::size_t>(source)] - done));
      requests.emplace_back();
      MPI_Irecv(at + done, n, MPI_BYTE, source, kBlockTag, world, &requests.back());
    }
  }
  for (int k = 1; k < ranks; ++k) {
    const int destination = (me + k) % ranks;
    const std::span<const std::byte> block = blocks[static_cast<std::size_t>(destination)];
    for (std::uint64_t done = 0; done < block.size(); done += kMessageBytes) {
      const auto n = static_cast<int>(std::min<std::uint64_t>(kMessageBytes, block.size() - done));
      requests.emplace_back();
      MPI_Isend(block.data() + done, n, MPI_BYTE, destination, kBlockTag, world, &requests.back());
    }
    bytes_sent += block.size();
  }
  const std::span<const std::byte> own = blocks[static_cast<std::size_t>(me)];
  if (!own.empty()) std::memcpy(received.bytes.data() + received.offsets[static_cast<std::size_t>(me)], own.data(), own.size());
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return received;
}

GatheredValues allgather_values(const Cluster& cluster, const std::vector<std::uint64_t>& mine) {
  const MPI_Comm world = cluster.world();
  const int ranks = cluster.size();
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks)), displacements(static_cast<std::size_t>(ranks), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, world);
  for (int r = 1; r < ranks; ++r) {
    displacements[static_cast<std::size_t>(r)] = displacements[static_cast<std::size_t>(r - 1)] + counts[static_cast<std::size_t>(r - 1)];
  }
  GatheredValues gathered;
  gathered.offsets.resize(static_cast<std::size_t>(ranks) + 1, 0);
  for (int r = 0; r < ranks; ++r) {
    gathered.offsets[static_cast<std::size_t>(r) + 1] = gathered.offsets[static_cast<std::size_t>(r)] + static_cast<std::uint64_t>(counts[static_cast<std::size_t>(r)]);
  }
  gathered.values.resize(gathered.offsets.back());
  MPI_Allgatherv(mine.data(), count, MPI_UINT64_T, gathered.values.data(), counts.data(), displacements.data(), MPI_UINT64_T,
                 world);
  return gathered;
}

}  // namespace hpcdb
