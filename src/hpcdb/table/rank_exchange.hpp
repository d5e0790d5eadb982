#pragma once
// The byte movements the table operators make between all ranks: every rank
// sends each rank a block of bytes of any size (counts exchanged first, the
// blocks in messages of at most 256 MiB, so that no MPI count overflows),
// the same pieces to every rank, and gathers of small vectors. Collective over the cluster's ranks.
#include <arrow/buffer.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct ReceivedBlocks {
  std::shared_ptr<arrow::Buffer> buffer;  // the blocks of all sources, in rank order
  std::vector<std::uint64_t> offsets;     // ranks + 1 offsets into buffer
  std::span<const std::byte> bytes() const {
    return {reinterpret_cast<const std::byte*>(buffer->data()), static_cast<std::size_t>(buffer->size())};
  }
  std::span<const std::byte> from(int source) const {
    const auto s = static_cast<std::size_t>(source);
    return bytes().subspan(offsets[s], offsets[s + 1] - offsets[s]);
  }
};

// Sends blocks[d] to rank d (the own block is copied) and returns what every
// rank sent this one, received into a buffer of the engine's Arrow pool that
// is not zero-filled first (its room made with failures agreed). `bytes_sent` grows by the bytes sent to other ranks.
ReceivedBlocks exchange_blocks(const Cluster& cluster, const std::vector<std::span<const std::byte>>& blocks,
                               std::uint64_t& bytes_sent);

// Sends outgoing[d] to rank d and receives rank s's block into incoming[s],
// whose size both sides know; the own rank's entries are left alone (the
// caller puts its own block in place). `bytes_sent` grows as above.
void exchange_spans(const Cluster& cluster, const std::vector<std::span<const std::byte>>& outgoing,
                    const std::vector<std::span<std::byte>>& incoming, std::uint64_t& bytes_sent);

// Every rank's vector, concatenated in rank order (and where each begins).
struct GatheredValues {
  std::vector<std::uint64_t> values;
  std::vector<std::uint64_t> offsets;  // ranks + 1
};
GatheredValues allgather_values(const Cluster& cluster, const std::vector<std::uint64_t>& mine);

// Sends the same pieces, in order, to every other rank (none is first
// copied into one block) and receives every other rank's pieces into room
// the caller makes: make_room(bytes) runs on every rank, any rank's failure
// agreed before a message is posted, and returns `bytes` of writable
// memory. Returns ranks + 1 offsets into it: rank s's pieces one after
// another from offsets[s] (the own rank's range empty). In round k each rank
// sends to rank + k and receives from rank - k, so that a round's requests
// alone are outstanding. `bytes_sent` as above.
std::vector<std::uint64_t> allgather_pieces(const Cluster& cluster, const std::vector<std::span<const std::byte>>& pieces,
                                            const std::function<std::byte*(std::uint64_t bytes)>& make_room,
                                            std::uint64_t& bytes_sent);

}  // namespace hpcdb
