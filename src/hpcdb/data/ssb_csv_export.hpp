#pragma once
// Writes the SSB tables as CSV files (lineorder.csv, customer.csv,
// supplier.csv, part.csv, date.csv) into a directory, streaming: the ranks
// generate and format chunks of rows in rounds (chunk c by rank c mod
// ranks) and write each round at its place in the file, so rows appear in
// key order and no rank holds more than a chunk (scale factor 100 writes
// about 60 GB without holding it in memory).
#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/data/ssb_csv.hpp"
#include "hpcdb/data/ssb_generator.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb::ssb {

struct CsvExportResult {
  std::vector<std::pair<TableId, std::uint64_t>> rows;  // per table written
  std::vector<std::pair<TableId, std::uint64_t>> bytes;
};

// Collective. `chunk_rows` keys (orders for lineorder) per chunk.
CsvExportResult write_csv_tables(const Cluster& cluster, const Generator& generator, const std::string& directory,
                                 std::uint64_t chunk_rows = 100'000);

std::string csv_path(const std::string& directory, TableId table);

}  // namespace hpcdb::ssb
