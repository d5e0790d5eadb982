#pragma once
// Writes one file together: every rank contributes its bytes, placed after
// those of all lower ranks (MPI-IO, so it works on any file system every
// rank can reach). Two-column records — relations <key, rid> and result
// pairs <rid_r, rid_s> — are written as 16-byte little-endian binary, or as
// CSV when the path ends in ".csv".
#include <cstdint>
#include <string>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective. Replaces any existing file.
void write_shared_file(const Cluster& cluster, const std::string& path, const char* data, std::uint64_t bytes);

// Collective. `rows` records of two unsigned 64-bit values each; with CSV,
// rank 0 writes `csv_header` first.
void write_two_column_file(const Cluster& cluster, const std::string& path, const std::uint64_t* values,
                           std::uint64_t rows, const std::string& csv_header);

}  // namespace hpcdb
