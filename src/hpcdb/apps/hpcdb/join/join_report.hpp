#pragma once
// How `hpcdb join` shows its results: a summary for people and JSON for programs.
#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <vector>

#include "hpcdb/apps/hpcdb/join/join_options.hpp"
#include "hpcdb/join/join_result.hpp"
#include "hpcdb/join/reference_join.hpp"
#include "hpcdb/model/join_model.hpp"

namespace hpcdb {

// A rank's peak memory from the start of the set-up to the end of the last
// run (inputs, windows, buffers, the runs' own allocations), against its
// input and the estimate the command checked before anything was allocated.
struct JoinMemory {
  std::uint64_t peak_bytes = 0;     // the largest rank's peak
  std::uint64_t private_bytes = 0;  // of which private pages
  std::uint64_t shared_bytes = 0;   // and its share of node-shared memory
  std::uint64_t input_bytes = 0;    // its input, 16 bytes per tuple
  std::uint64_t estimate_bytes = 0;
  bool since_start = true;  // false: the kernel kept the peak from the process start
};

struct RunContext {
  int ranks = 1;
  int nodes = 1;
  double setup_seconds = 0;
  std::optional<JoinDigest> expected;  // present with --verify
  std::optional<ModelPrediction> model;  // present with --calibration
  JoinMemory memory;
  // Payload splitting (--payload-bytes), after the first run.
  double payload_seconds = 0;
  std::uint64_t payload_bytes_sent = 0;
  std::uint64_t payload_rows = 0;
  // CSV inputs' first lines skipped as headers.
  std::optional<std::string> inner_header;
  std::optional<std::string> outer_header;
};

nlohmann::ordered_json run_to_json(const JoinOptions& options, const RunContext& context, const JoinResult& result, unsigned repetition);

void print_header(std::ostream& out, const JoinOptions& options, const RunContext& context, const JoinResult& first);
void print_run(std::ostream& out, const RunContext& context, const JoinResult& result, unsigned repetition, unsigned repeat);
void print_payloads(std::ostream& out, const RunContext& context, std::size_t payload_width);
void print_summary(std::ostream& out, const RunContext& context, const std::vector<JoinResult>& results);

bool matches_expected(const RunContext& context, const JoinResult& result);

}  // namespace hpcdb
