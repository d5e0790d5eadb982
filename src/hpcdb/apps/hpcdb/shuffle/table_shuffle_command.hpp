#pragma once
// `hpcdb shuffle --input PATH --on COL --output DIR`: a table's rows
// hash-partitioned by key over the ranks (api/table_shuffle.hpp); prints a
// summary and writes JSON with --json.
#include <string>
#include <vector>

#include "hpcdb/apps/hpcdb/shuffle/table_shuffle_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_table_shuffle_command(const Cluster& cluster, const TableShuffleOptions& options, const std::string& json,
                              double progress_timeout);

}  // namespace hpcdb
