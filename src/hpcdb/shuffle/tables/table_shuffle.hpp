#pragma once
// The shuffle of a distributed table by key columns: every row goes to the
// rank ⌊h · ranks / 2^64⌋ of its key's 64-bit hash h (table/key_hash.hpp;
// the same for any integer width, and for string and large_string), so that
// all rows of a key land on one rank. Rows with a null in a key column all go
// to rank 0. Each rank cuts its share into one batch per destination (the
// columns' rows taken in order) and the batches travel as Arrow IPC messages
// in one exchange of blocks between all ranks (table/batch_exchange.hpp),
// strings and nulls included. Collective.
#include <cstdint>
#include <vector>

#include "hpcdb/core/phase_time.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"

namespace hpcdb {

struct TableShuffleOutcome {
  DistributedTable result;       // the rows whose keys this rank owns
  std::uint64_t bytes_sent = 0;  // to other ranks, all ranks together
  std::uint64_t rows_moved = 0;  // to other ranks, all ranks together
  std::vector<PhaseTime> phases;  // partition, exchange
};

TableShuffleOutcome shuffle_table(const Cluster& cluster, const DistributedTable& table, const std::vector<int>& key_columns);

// The destination rank of a key hash.
inline int destination_of(std::uint64_t hash, int ranks) {
  __extension__ typedef unsigned __int128 Wide;
  return static_cast<int>((static_cast<Wide>(hash) * static_cast<unsigned>(ranks)) >> 64);
}

}  // namespace hpcdb
