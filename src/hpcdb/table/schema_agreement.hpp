#pragma once
// Shares of a distributed table that a caller holds in memory (each rank its
// own) must have one schema, or the rows of different ranks would be read
// as different things.
#include <arrow/type.h>

#include <memory>
#include <string>

#include <arrow/table.h>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective: `share` under the schema all ranks agree on. A UsageError on
// every rank, naming the first rank whose schema differs from rank 0's,
// unless all ranks have the same column names and types; each column is
// declared not null only where every rank's share declares it so (the
// declaration decides the result's, and every rank's result must have one
// schema).
std::shared_ptr<arrow::Table> agreed_share(const Cluster& cluster, std::shared_ptr<arrow::Table> share,
                                           const std::string& label);

}  // namespace hpcdb
