#pragma once
// Which rows of a table found a match, for outer, semi and anti joins: the
// join's pairs lie on whichever rank joined them, so every rank sends each
// matched row's number to the row's owner, which marks it. Collective.
#include <cstdint>
#include <vector>

#include "hpcdb/join/tables/row_directory.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// One flag per row of this rank's share: 1 if some rank holds a pair with it.
std::vector<std::uint8_t> matched_rows(const Cluster& cluster, const RowDirectory& directory,
                                       const std::vector<std::uint64_t>& pair_rows, std::uint64_t& bytes_sent);

// The local row numbers whose flag is `flag`.
std::vector<std::uint64_t> rows_flagged(const std::vector<std::uint8_t>& flags, std::uint8_t flag);

}  // namespace hpcdb
