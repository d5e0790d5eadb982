#pragma once
// `hpcdb generate --ssb --scale N`: the Star Schema Benchmark's five tables
// as CSV files (the data `hpcdb ssb` generates in memory for the same scale
// and seed), for DuckDB or any other system.
#include <CLI/CLI.hpp>

#include "hpcdb/apps/hpcdb/generate/generate_command.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

void add_ssb_generate_options(CLI::App& generate, GenerateOptions& options);
int run_ssb_generate(const Cluster& cluster, const GenerateOptions& options);

}  // namespace hpcdb
