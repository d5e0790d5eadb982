#pragma once
// Whether ranks that MPI places on different nodes still run under one
// operating-system kernel (hosts emulated with network namespaces or
// containers on one machine): their "network" is then the same cores'
// work, not a separate device.
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective over the world. False when the kernel's boot id is unreadable.
bool nodes_share_a_kernel(const Cluster& cluster);

}  // namespace hpcdb
