#pragma once
// Writes a join's result pairs <rid_r, rid_s> into one shared file, each rank
// at its own offset (shared_file_writer.hpp). A path ending in ".csv" gets text lines
// "rid_r,rid_s" after a header; any other path gets little-endian binary
// 16-byte records.
#include <string>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective. Ranks write in rank order.
void write_pair_file(const Cluster& cluster, const std::string& path, const std::vector<MatchPair>& pairs);

}  // namespace hpcdb
