#pragma once
// What each rank must receive, computed without the operator: every rank
// routes its own input rows by the documented rule (row_router.hpp),
// written out again here, sums count and checksum per destination in one
// plain loop, and one MPI_Alltoall tells each destination what every
// source sent it. Checking a shuffle against it (count and checksum per
// source and destination, end of stream once per source and after all its
// rows) shows that every row arrived exactly once, at its destination.
#include <string>
#include <vector>

#include "hpcdb/kernels/row_checksum.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/shuffle/digest_consumer.hpp"
#include "hpcdb/shuffle/shuffle.hpp"

namespace hpcdb {

// Collective. Per source rank: the rows (and their checksum) this rank must receive from it.
std::vector<RowDigest> expected_digests(const Cluster& cluster, RowSpan input, std::uint32_t row_bytes);

// Empty when `consumer` received exactly `expected`; otherwise what is wrong (this rank's view).
std::string compare_with_expected(const DigestConsumer& consumer, const std::vector<RowDigest>& expected, int me);

}  // namespace hpcdb
