#pragma once
// Payload splitting (2012 thesis, section 6.2): tuples travel through a
// join as <key, rid> only; afterwards each result pair fetches what it
// needs from the ranks that hold its tuples: R's key and payload by rid_r,
// S's key and payload by rid_s. Two request/response exchanges
// (MPI_Alltoallv), one per side. The rids must be the tuples' global
// indices, each rank holding one contiguous range of them (generated data).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/data/payload_column.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct PayloadSide {
  const Relation* fragment = nullptr;
  const PayloadColumn* payloads = nullptr;
};

// Joined rows: rid_r, rid_s, key of R, key of S (u64 each), then R's and
// S's payloads.
struct JoinedRows {
  std::size_t payload_width = 0;
  std::vector<std::byte> bytes;
  std::size_t row_bytes() const { return 4 * sizeof(std::uint64_t) + 2 * payload_width; }
  std::size_t rows() const { return row_bytes() == 0 ? 0 : bytes.size() / row_bytes(); }
};

struct FetchStats {
  std::uint64_t bytes_sent = 0;  // requests and responses to other ranks
};

// Collective: the rows of this rank's pairs, in the pairs' order.
JoinedRows fetch_payloads(const Cluster& cluster, const std::vector<MatchPair>& pairs, const PayloadSide& inner,
                          const PayloadSide& outer, FetchStats& stats);

}  // namespace hpcdb
