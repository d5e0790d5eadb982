#pragma once
// A distributed table copied whole to every rank (the build side of a
// broadcast join): each rank's share is written in Arrow's IPC stream format
// and sent to every other rank, its column buffers of 4 KiB or more where
// they are (the messages' metadata and small buffers are copied;
// rank_exchange.hpp's allgather_pieces); what arrives is read without a
// copy, and the own share is kept as it is. Collective.
#include <cstdint>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

struct AllgatheredTable {
  DistributedTable table;               // every rank's share, in rank order
  std::vector<std::uint64_t> first_row; // ranks + 1: where each rank's share begins in `table`
};

// `bytes_sent` grows by the bytes sent to other ranks.
AllgatheredTable allgather_table(const Cluster& cluster, const DistributedTable& share, std::uint64_t& bytes_sent);

}  // namespace hpcdb
