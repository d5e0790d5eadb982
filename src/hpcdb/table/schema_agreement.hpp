#pragma once
// Shares of a distributed table that a caller holds in memory (each rank its
// own) must have one schema, or the rows of different ranks would be read
// as different things.
#include <arrow/type.h>

#include <memory>
#include <string>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

// Collective: a UsageError on every rank, naming the first rank whose schema
// differs from rank 0's, unless all ranks have the same column names and types.
void require_same_schema(const Cluster& cluster, const arrow::Schema& schema, const std::string& label);

}  // namespace hpcdb
