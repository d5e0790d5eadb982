#pragma once
// The library entry point of a shuffle of a table by key columns (every
// front end calls this). Collective; no option parsing, no printing.
#include <arrow/table.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpcdb/core/phase_time.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/parquet_directory_writer.hpp"
#include "hpcdb/table/table_input.hpp"

namespace hpcdb {

struct TableShuffleRequest {
  TableInput input;                     // read when `table` is null
  std::shared_ptr<arrow::Table> table;  // this rank's share, in memory
  std::vector<std::string> on;          // key columns
  TableOutput output;                   // a directory of Parquet files; empty: in memory only
  bool progress = false;                // a progress line on rank 0's terminal
};

struct TableShuffleResult {
  std::shared_ptr<arrow::Table> table;  // the rows of the keys this rank owns
  std::uint64_t rows = 0;               // over all ranks
  std::uint64_t rows_moved = 0;         // to another rank
  std::uint64_t bytes_sent = 0;         // to other ranks
  std::uint64_t min_rank_rows = 0;      // after the shuffle
  std::uint64_t max_rank_rows = 0;
  std::uint64_t output_bytes = 0;
  std::vector<std::pair<std::string, std::string>> output_encodings;  // rank 0's file: each column's
  std::uint64_t peak_bytes_per_rank = 0;
  std::vector<PhaseTime> phases;        // read, partition, exchange, write
  double seconds = 0;
};

// Collective.
TableShuffleResult run_table_shuffle(const Cluster& cluster, const TableShuffleRequest& request);

}  // namespace hpcdb
