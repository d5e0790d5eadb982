#pragma once
// `hpcdb netbench`: OSU-style measurements of plain MPI and of the message
// layer's paths (ring only, two-sided only, hybrid): bandwidth over a size
// sweep, ping-pong latency, two sizes at once, one-to-many, and round trips
// of latency-sensitive messages under a best-effort flood; or, with
// --all-to-all, the schedules of an all-to-all exchange on raw data.
#include "hpcdb/apps/hpcdb/netbench/netbench_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_netbench_command(const Cluster& cluster, const NetbenchOptions& options);

}  // namespace hpcdb
