#pragma once
#include "hpcdb/apps/hpcdb/join/join_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Runs `hpcdb join` on every rank; returns the process exit code.
int run_join_command(const Cluster& cluster, JoinOptions& options);

}  // namespace hpcdb
