#pragma once
// `hpcdb generate`: writes the join workload to files, so that other systems
// (or `hpcdb join --input-r/--input-s`) can run on identical data.
#include <CLI/CLI.hpp>

#include <string>

#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct GenerateOptions {
  std::string inner = "16M";
  std::string outer = "16M";
  double zipf = 0.0;
  double selectivity = 1.0;
  double gaussian = 0.0;
  unsigned key_spacing = 0;
  std::uint64_t seed = 42;
  unsigned threads = 1;
  std::string output_r;
  std::string output_s;
  // --ssb: the Star Schema Benchmark's five tables as CSV files instead.
  bool ssb = false;
  double scale = 1;
  std::string output_dir = ".";
};

void add_generate_options(CLI::App& generate, GenerateOptions& options);
int run_generate_command(const Cluster& cluster, const GenerateOptions& options);

}  // namespace hpcdb
