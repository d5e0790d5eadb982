#pragma once
// Library entry point: the join workload written to two relation files (the
// data a join generates for the same workload), or the Star Schema
// Benchmark's five tables as CSV files, so that other systems (or a join
// from files) run on identical data.
#include <string>

#include "hpcdb/data/ssb_csv_export.hpp"
#include "hpcdb/data/ssb_scale.hpp"
#include "hpcdb/data/workload_generator.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct GenerateRequest {
  WorkloadSpec workload;
  unsigned threads = 1;  // generator threads per rank
  std::string output_r;  // binary, or CSV when the name ends in .csv
  std::string output_s;
};

struct GenerateResult {
  double seconds = 0;
  std::uint64_t expected_matches = 0;
};

struct SsbGenerateRequest {
  double scale = 1;
  std::uint64_t seed = 42;
  std::string output_dir;  // an existing directory
};

struct SsbGenerateResult {
  double seconds = 0;
  ssb::CsvExportResult written;  // rows and bytes per table file
};

// Collective; throws UsageError (every rank alike) for a bad request or one
// that does not fit this node's memory or the outputs' file systems. Both
// files appear together, or neither does.
GenerateResult generate_relations_to_files(const Cluster& cluster, const GenerateRequest& request);

// Collective.
SsbGenerateResult generate_ssb_tables(const Cluster& cluster, const SsbGenerateRequest& request);

}  // namespace hpcdb
