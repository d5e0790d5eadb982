#pragma once
// Writes a join's result pairs <rid_r, rid_s> into one shared file, each rank
// at its own offset (shared_file_writer.hpp). A path ending in ".csv" gets text lines
// "rid_r,rid_s" after a header; any other path gets little-endian binary
// 16-byte records.
#include <cstddef>
#include <string>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective. Ranks write in rank order.
void write_pair_file(const Cluster& cluster, const std::string& path, const std::vector<MatchPair>& pairs);

// Collective. Joined rows with payloads (payload splitting): binary rows as
// they are (rid_r, rid_s, key_r, key_s as little-endian u64, then both
// payloads), or CSV lines "rid_r,rid_s,key_r,key_s,payload_r,payload_s"
// with the payloads in hexadecimal.
void write_row_file(const Cluster& cluster, const std::string& path, const std::vector<std::byte>& rows,
                    std::size_t payload_width);

}  // namespace hpcdb
