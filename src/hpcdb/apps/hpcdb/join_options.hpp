#pragma once
// The options of `hpcdb join`, as the command line gives them.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "hpcdb/data/workload_generator.hpp"
#include "hpcdb/join/join_config.hpp"

namespace hpcdb {

struct JoinOptions {
  std::string algorithm = "radix";
  std::string inner = "16M";
  std::string outer = "16M";
  double zipf = 0.0;
  double selectivity = 1.0;
  std::uint64_t seed = 42;
  std::string input_r;
  std::string input_s;
  std::string output;
  unsigned network_bits = 0;
  unsigned local_bits = 0;
  std::string buffer_size = "64KiB";
  unsigned buffers_per_partition = 2;
  std::string assignment = "round-robin";
  std::string compression = "auto";
  unsigned threads = 1;
  bool force_put = false;
  std::string node_sharing = "on";
  unsigned input_chunks = 0;
  unsigned repeat = 1;
  std::string json;
  bool verify = false;
  std::string run_length = "16384";
  unsigned merge_fan_in = 16;
  unsigned subranges = 0;
  std::string send_order = "shifted";
  std::string splitters = "equal";
  std::string calibration;  // rates for the model column

  // Interpreted values, filled by resolve().
  WorkloadSpec workload;
  RadixJoinConfig radix;
  SortMergeJoinConfig sort_merge;
  bool is_radix() const { return algorithm == "radix"; }
  bool from_files() const { return !input_r.empty(); }
};

// Declares the options on the `join` subcommand.
void add_join_options(CLI::App& join, JoinOptions& options);

// Checks combinations and turns text into values; throws UsageError.
void resolve(JoinOptions& options);

}  // namespace hpcdb
