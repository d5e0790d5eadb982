#pragma once
// `hpcdb join`: the options turned into a join request, the library's
// run_join, and its report (text as each run ends, then a summary; JSON on
// request).
#include "hpcdb/apps/hpcdb/join/join_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_join_command(const Cluster& cluster, JoinOptions& options);

}  // namespace hpcdb
