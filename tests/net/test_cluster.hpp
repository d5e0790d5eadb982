#pragma once
#include "hpcdb/net/cluster.hpp"

namespace hpcdb::testing {
// The job's cluster, set up once by the MPI test main.
extern const Cluster* g_cluster;
inline const Cluster& cluster() { return *g_cluster; }
}  // namespace hpcdb::testing
