#pragma once
// An independent distributed join used to verify the optimized operators:
// tuples travel by a hash of their key with plain two-sided MPI_Alltoallv,
// and each rank sorts both sides and combines equal-key groups. It shares no
// code with the radix or sort-merge operators.
#include <cstdint>

#include "hpcdb/data/relation.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct JoinDigest {
  std::uint64_t matches = 0;
  std::uint64_t checksum = 0;  // sum of pair_checksum(rid_r, rid_s) mod 2^64
};

// Collective; the digest is the same on every rank.
JoinDigest reference_join(const Cluster& cluster, const Relation& inner, const Relation& outer);

}  // namespace hpcdb
