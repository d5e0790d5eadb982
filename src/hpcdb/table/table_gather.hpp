#pragma once
// A distributed table brought together at one rank (for a result small
// enough to look at there, or to hand to a single-process tool).
#include <arrow/table.h>

#include <memory>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective: every rank's share, in rank order, as one table at `root`
// (null at the other ranks). The shares must have one schema (UsageError on
// every rank otherwise); at most 2 GiB of Arrow IPC data in all.
std::shared_ptr<arrow::Table> gather_table(const Cluster& cluster, const std::shared_ptr<arrow::Table>& share, int root);

}  // namespace hpcdb
