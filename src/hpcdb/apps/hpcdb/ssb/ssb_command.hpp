#pragma once
// `hpcdb ssb`: the Star Schema Benchmark on the decoupled storage engine.
// Storage ranks generate their table fragments and serve shared scans and
// point queries; query-engine ranks run closed-loop clients through their
// batch-cycle operators (shared hash joins and grouped aggregation). Prints
// queries per hour and latencies per flight, point-query latencies, what the
// storage engines scanned and sent, and bytes moved; JSON on request.
#include <CLI/CLI.hpp>

#include "hpcdb/apps/hpcdb/ssb/ssb_options.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

int run_ssb_command(const Cluster& cluster, const SsbOptions& options);

}  // namespace hpcdb
