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

// A block posted as messages of at most kMessageBytes.
void post_receive(std::vector<MPI_Request>& requests, std::span<std::byte> block, int source, MPI_Comm world) {
  for (std::uint64_t done = 0; done < block.size(); done += kMessageBytes) {
    const auto n = static_cast<int>(std::min<std::uint64_t>(kMessageBytes, block.size() - done));
    requests.emplace_back();
    MPI_Irecv(block.data() + done, n, MPI_BYTE, source, kBlockTag, world, &requests.back());
  }
}

void post_send(std::vector<MPI_Request>& requests, std::span<const std::byte> block, int destination, MPI_Comm world) {
  for (std::uint64_t done = 0; done < block.size(); done += kMessageBytes) {
    const auto n = static_cast<int>(std::min<std::uint64_t>(kMessageBytes, block.size() - done));
    requests.emplace_back();
    MPI_Isend(block.data() + done, n, MPI_BYTE, destination, kBlockTag, world, &requests.back());
  }
}

void wait_all(std::vector<MPI_Request>& requests) {
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

}  // namespace

void exchange_spans(const Cluster& cluster, const std::vector<std::span<const std::byte>>& outgoing,
                    const std::vector<std::span<std::byte>>& incoming, std::uint64_t& bytes_sent) {
  const MPI_Comm world = cluster.world();
  const int ranks = cluster.size(), me = cluster.rank();
  if (outgoing.size() != static_cast<std::size_t>(ranks) || incoming.size() != static_cast<std::size_t>(ranks)) {
    throw Error("exchange_spans: one block per rank expected");
  }
  std::vector<MPI_Request> requests;
  // Receives first, from every rank in the order it sends.
  for (int k = 1; k < ranks; ++k) {
    const int source = (me - k + ranks) % ranks;
    post_receive(requests, incoming[static_cast<std::size_t>(source)], source, world);
  }
  for (int k = 1; k < ranks; ++k) {
    const int destination = (me + k) % ranks;
    const std::span<const std::byte> block = outgoing[static_cast<std::size_t>(destination)];
    post_send(requests, block, destination, world);
    bytes_sent += block.size();
  }
  wait_all(requests);
}

void allgather_pieces(const Cluster& cluster, const std::vector<std::span<const std::byte>>& pieces,
                      const GatheredValues& piece_sizes, const std::vector<std::span<std::byte>>& incoming,
                      std::uint64_t& bytes_sent) {
  const MPI_Comm world = cluster.world();
  const int ranks = cluster.size(), me = cluster.rank();
  if (incoming.size() != static_cast<std::size_t>(ranks)) throw Error("allgather_pieces: one block per rank expected");
  // Checked before any message is posted (a throw later would leave posted
  // receives writing into freed memory).
  for (int source = 0; source < ranks; ++source) {
    const auto s = static_cast<std::size_t>(source);
    std::uint64_t bytes = 0;
    for (std::uint64_t p = piece_sizes.offsets[s]; p < piece_sizes.offsets[s + 1]; ++p) bytes += piece_sizes.values[p];
    if (source != me && bytes != incoming[s].size()) {
      throw Error("allgather_pieces: rank " + std::to_string(source) + "'s pieces do not fill the room given for them");
    }
  }
  std::vector<MPI_Request> requests;
  for (int k = 1; k < ranks; ++k) {
    const int source = (me - k + ranks) % ranks, destination = (me + k) % ranks;
    const auto s = static_cast<std::size_t>(source);
    std::uint64_t at = 0;
    for (std::uint64_t p = piece_sizes.offsets[s]; p < piece_sizes.offsets[s + 1]; ++p) {
      const std::uint64_t size = piece_sizes.values[p];
      post_receive(requests, incoming[s].subspan(at, size), source, world);
      at += size;
    }
    for (const std::span<const std::byte> piece : pieces) {
      post_send(requests, piece, destination, world);
      bytes_sent += piece.size();
    }
    wait_all(requests);
  }
}

ReceivedBlocks exchange_blocks(const Cluster& cluster, const std::vector<std::span<const std::byte>>& blocks,
                               std::uint64_t& bytes_sent) {
  const int ranks = cluster.size(), me = cluster.rank();
  if (blocks.size() != static_cast<std::size_t>(ranks)) throw Error("exchange_blocks: one block per rank expected");
  std::vector<std::uint64_t> send_sizes(blocks.size()), receive_sizes(blocks.size());
  for (std::size_t d = 0; d < blocks.size(); ++d) send_sizes[d] = blocks[d].size();
  MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, receive_sizes.data(), 1, MPI_UINT64_T, cluster.world());
  ReceivedBlocks received;
  received.offsets = exclusive_offsets(receive_sizes);
  received.bytes.resize(received.offsets.back());
  std::vector<std::span<std::byte>> incoming(blocks.size());
  for (std::size_t s = 0; s < blocks.size(); ++s) incoming[s] = {received.bytes.data() + received.offsets[s], receive_sizes[s]};
  exchange_spans(cluster, blocks, incoming, bytes_sent);
  const std::span<const std::byte> own = blocks[static_cast<std::size_t>(me)];
  if (!own.empty()) std::memcpy(incoming[static_cast<std::size_t>(me)].data(), own.data(), own.size());
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
