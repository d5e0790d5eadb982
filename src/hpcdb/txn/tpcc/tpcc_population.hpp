#pragma once
// TPC-C's initial database (clause 4.3.3.1): the rows of one warehouse, with
// its 10 districts, 30,000 customers (last names from the syllable table, the
// first 1,000 in order and the rest by NURand(255, 0, 999); 10% "BC"
// credit), one history row each, 100,000 stock rows, 3,000 orders per
// district for a random permutation of the customers with 5-15 lines each
// (orders from 2101 on undelivered and in the new-order queue), and the
// 100,000 items (10% of item and stock data "ORIGINAL"); plus the indexes of
// tpcc_indexes.hpp. Each warehouse and the item table draw from their own
// stream of the run's seed, so the database is the same for any number of ranks.
#include <cstddef>
#include <cstdint>

#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/tpcc/tpcc_random.hpp"

namespace hpcdb::tpcc {

struct LoadSettings {
  std::uint64_t seed = 1;
  NurandConstants constants;
  Date now = 0;  // c_since, h_date, o_entry_d, ol_delivery_d of delivered orders
};

// Fills `partition` (layout.partition_bytes()) with warehouse `w`.
void load_warehouse(std::byte* partition, const TpccLayout& layout, int w, const LoadSettings& settings);

// Fills `replica` (layout.replica_bytes()) with the item table.
void load_items(std::byte* replica, const LoadSettings& settings);

}  // namespace hpcdb::tpcc
