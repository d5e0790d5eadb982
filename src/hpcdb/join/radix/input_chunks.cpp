#include "hpcdb/join/radix/input_chunks.hpp"

#include <algorithm>

#include "hpcdb/join/chunk_tasks.hpp"

namespace hpcdb {

unsigned InputChunks::chunks_for(unsigned requested, std::uint64_t largest_relation, int ranks, unsigned threads,
                                 std::size_t partitions) {
  constexpr std::uint64_t kMaxCounters = std::uint64_t{1} << 18;  // per relation: 2 MiB of counts
  const std::uint64_t max_chunks = std::min<std::uint64_t>(64, std::max<std::uint64_t>(1, kMaxCounters / partitions));
  return input_chunks(requested, largest_relation, ranks, threads, max_chunks);
}

InputChunks::InputChunks(const Cluster& cluster, unsigned chunks, std::size_t partitions)
    : chunks_(chunks), partitions_(partitions), arena_(cluster, bytes_for(chunks, partitions)) {}

std::uint64_t* InputChunks::table(int node_rank, int kind, int relation, unsigned chunk) const {
  const std::size_t index = (static_cast<std::size_t>(kind) * 2 + static_cast<std::size_t>(relation)) * chunks_ + chunk;
  return reinterpret_cast<std::uint64_t*>(arena_.segment(node_rank)) + index * partitions_;
}

}  // namespace hpcdb
