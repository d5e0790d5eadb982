#include "hpcdb/table/rank_exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/table/arrow_status.hpp"
#include "hpcdb/table/memory_pool.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kMessageBytes = std::uint64_t{256} << 20;
constexpr int kBlockTag = 3501;

std::vector<std::uint64_t> exclusive_offsets(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::uint64_t> offsets(sizes.size() + 1, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) offsets[i + 1] = offsets[i] + sizes[i];
  return offsets;
}

// A block of `bytes` posted as messages of at most kMessageBytes:
// post(offset, count, request) posts one.
template <class Post>
void post_messages(std::vector<MPI_Request>& requests, std::uint64_t bytes, Post post) {
  for (std::uint64_t done = 0; done < bytes; done += kMessageBytes) {
    requests.emplace_back();
    post(done, static_cast<int>(std::min<std::uint64_t>(kMessageBytes, bytes - done)), &requests.back());
  }
}

void post_receive(std::vector<MPI_Request>& requests, std::span<std::byte> block, int source, MPI_Comm world) {
  post_messages(requests, block.size(), [&](std::uint64_t at, int n, MPI_Request* request) {
    MPI_Irecv(block.data() + at, n, MPI_BYTE, source, kBlockTag, world, request);
  });
}

void post_send(std::vector<MPI_Request>& requests, std::span<const std::byte> block, int destination, MPI_Comm world) {
  post_messages(requests, block.size(), [&](std::uint64_t at, int n, MPI_Request* request) {
    MPI_Isend(block.data() + at, n, MPI_BYTE, destination, kBlockTag, world, request);
  });
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

std::vector<std::uint64_t> allgather_pieces(const Cluster& cluster, const std::vector<std::span<const std::byte>>& pieces,
                                            const std::function<std::byte*(std::uint64_t bytes)>& make_room,
                                            std::uint64_t& bytes_sent) {
  const MPI_Comm world = cluster.world();
  const int ranks = cluster.size(), me = cluster.rank();
  std::vector<std::uint64_t> sizes;
  for (const std::span<const std::byte> piece : pieces) sizes.push_back(piece.size());
  const GatheredValues piece_sizes = allgather_values(cluster, sizes);
  std::vector<std::uint64_t> source_bytes(static_cast<std::size_t>(ranks), 0);
  for (int source = 0; source < ranks; ++source) {
    const auto s = static_cast<std::size_t>(source);
    if (source == me) continue;
    for (std::uint64_t p = piece_sizes.offsets[s]; p < piece_sizes.offsets[s + 1]; ++p) source_bytes[s] += piece_sizes.values[p];
  }
  const std::vector<std::uint64_t> offsets = exclusive_offsets(source_bytes);
  std::byte* room = nullptr;
  run_collectively(world, [&] { room = make_room(offsets.back()); });
  std::vector<MPI_Request> requests;
  for (int k = 1; k < ranks; ++k) {
    const int source = (me - k + ranks) % ranks, destination = (me + k) % ranks;
    const auto s = static_cast<std::size_t>(source);
    std::byte* at = room + offsets[s];
    for (std::uint64_t p = piece_sizes.offsets[s]; p < piece_sizes.offsets[s + 1]; ++p) {
      post_receive(requests, {at, piece_sizes.values[p]}, source, world);
      at += piece_sizes.values[p];
    }
    for (const std::span<const std::byte> piece : pieces) {
      post_send(requests, piece, destination, world);
      bytes_sent += piece.size();
    }
    wait_all(requests);
  }
  return offsets;
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
  run_collectively(cluster.world(), [&] {
    received.buffer = value_of(
        arrow::AllocateBuffer(static_cast<std::int64_t>(received.offsets.back()), table_memory_pool()),
        "cannot make room for the blocks other ranks send");
  });
  auto* room = reinterpret_cast<std::byte*>(received.buffer->mutable_data());
  std::vector<std::span<std::byte>> incoming(blocks.size());
  for (std::size_t s = 0; s < blocks.size(); ++s) incoming[s] = {room + received.offsets[s], receive_sizes[s]};
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
