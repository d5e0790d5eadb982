#pragma once
// A distributed table written as a directory of Parquet files, one per rank
// (part-00000.parquet, part-00001.parquet, ...; a rank without rows writes
// a file with the schema and no rows), complete or not at all: every rank
// writes its file into a hidden sibling directory (.NAME.partial-PID), each
// file under a temporary name renamed once closed, and rank 0 renames the
// directory over NAME once every rank's file is complete; a failure on any
// rank ends every rank with one message and removes what was written.
#include <cstdint>
#include <string>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/table/distributed_table.hpp"
#include "hpcdb/table/progress_line.hpp"

namespace hpcdb {

struct TableOutput {
  std::string directory;
  bool overwrite = false;  // replace an existing directory (else it is refused)
};

// Collective, before the work: refuses an existing path unless `overwrite`
// (and a path that is not a directory, a parent that is missing or not
// writable) on every rank with one UsageError.
void check_table_output(const Cluster& cluster, const TableOutput& output, const std::string& option);

struct WriteStats {
  std::uint64_t bytes = 0;  // of this rank's file
  std::string file;         // its final path
};

// Collective.
WriteStats write_parquet_directory(const Cluster& cluster, const DistributedTable& table, const TableOutput& output,
                                   ProgressLine* progress = nullptr);

// The name of rank r's file.
std::string part_file_name(int rank);

}  // namespace hpcdb
