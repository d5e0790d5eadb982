#pragma once
// `hpcdb join --left ... --right ... --on ...`: a join of two tables
// through the library's entry point (api/table_join.hpp).
#include "hpcdb/apps/hpcdb/join/join_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_table_join_command(const Cluster& cluster, JoinOptions& options);

}  // namespace hpcdb
