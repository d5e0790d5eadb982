#include "hpcdb/join/tables/matched_rows.hpp"

#include <cstring>
#include <span>

#include "hpcdb/table/rank_exchange.hpp"

namespace hpcdb {

std::vector<std::uint8_t> matched_rows(const Cluster& cluster, const RowDirectory& directory,
                                       const std::vector<std::uint64_t>& pair_rows, std::uint64_t& bytes_sent) {
  const auto ranks = static_cast<std::size_t>(cluster.size());
  // The owners' local row numbers (a row in several pairs is sent as often).
  std::vector<std::vector<std::uint64_t>> per_owner(ranks);
  for (std::uint64_t row : pair_rows) {
    const int owner = directory.owner(row);
    per_owner[static_cast<std::size_t>(owner)].push_back(row - directory.first(owner));
  }
  std::vector<std::span<const std::byte>> blocks(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    blocks[r] = {reinterpret_cast<const std::byte*>(per_owner[r].data()), per_owner[r].size() * sizeof(std::uint64_t)};
  }
  const ReceivedBlocks received = exchange_blocks(cluster, blocks, bytes_sent);
  const std::uint64_t mine = directory.first(cluster.rank() + 1) - directory.first(cluster.rank());
  std::vector<std::uint8_t> flags(mine, 0);
  const std::span<const std::byte> asked = received.bytes();
  for (std::size_t i = 0; i + sizeof(std::uint64_t) <= asked.size(); i += sizeof(std::uint64_t)) {
    std::uint64_t row;
    std::memcpy(&row, asked.data() + i, sizeof row);
    flags[row] = 1;
  }
  return flags;
}

std::vector<std::uint64_t> rows_flagged(const std::vector<std::uint8_t>& flags, std::uint8_t flag) {
  std::vector<std::uint64_t> rows;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == flag) rows.push_back(i);
  }
  return rows;
}

}  // namespace hpcdb
