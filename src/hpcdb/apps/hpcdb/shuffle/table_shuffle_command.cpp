#include "hpcdb/apps/hpcdb/shuffle/table_shuffle_command.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "hpcdb/api/table_shuffle.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/progress_guard.hpp"

namespace hpcdb {
namespace {

void print_summary(std::ostream& out, const TableShuffleRequest& request, const TableShuffleResult& r, int ranks) {
  std::string keys;
  for (const std::string& k : request.on) keys += (keys.empty() ? "" : ",") + k;
  fmt::print(out, "hpcdb shuffle: '{}' ({} rows) on {}, {} rank{}\n", request.input.path, format_grouped(r.rows), keys, ranks,
             ranks == 1 ? "" : "s");
  fmt::print(out, "{:<12} {:>9} {:>9}\n", "phase", "max s", "mean s");
  for (const PhaseTime& p : r.phases) fmt::print(out, "{:<12} {:>9.3f} {:>9.3f}\n", p.name, p.max, p.mean);
  fmt::print(out, "{:<12} {:>9.3f}\n", "total", r.seconds);
  fmt::print(out, "moved: {} rows to other ranks, {} sent; rows per rank after: {} to {}\n", format_grouped(r.rows_moved),
             format_bytes(static_cast<double>(r.bytes_sent)), format_grouped(r.min_rank_rows), format_grouped(r.max_rank_rows));
  if (!request.output.directory.empty()) {
    fmt::print(out, "output: '{}', {} in {} Parquet file{}\n", request.output.directory,
               format_bytes(static_cast<double>(r.output_bytes)), ranks, ranks == 1 ? "" : "s");
  }
  fmt::print(out, "memory: peak {} per rank (largest rank)\n", format_bytes(static_cast<double>(r.peak_bytes_per_rank)));
}

nlohmann::ordered_json summary_json(const TableShuffleRequest& request, const TableShuffleResult& r, int ranks) {
  nlohmann::ordered_json j;
  j["command"] = "shuffle";
  j["input"] = request.input.path;
  j["on"] = request.on;
  j["ranks"] = ranks;
  j["rows"] = r.rows;
  j["rows_moved"] = r.rows_moved;
  j["bytes_sent"] = r.bytes_sent;
  j["min_rank_rows"] = r.min_rank_rows;
  j["max_rank_rows"] = r.max_rank_rows;
  j["seconds"] = r.seconds;
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (const PhaseTime& p : r.phases) phases[p.name] = {{"max", p.max}, {"mean", p.mean}};
  j["phases"] = phases;
  j["output"] = {{"directory", request.output.directory},
                 {"bytes", r.output_bytes},
                 {"encodings", encodings_json(r.output_encodings)}};
  j["memory"] = {{"peak_bytes_per_rank", r.peak_bytes_per_rank}};
  return j;
}

}  // namespace

int run_table_shuffle_command(const Cluster& cluster, const TableShuffleOptions& options, const std::string& json,
                              double progress_timeout) {
  const bool leader = cluster.rank() == 0;
  TableShuffleRequest request;
  run_collectively(cluster.world(), [&] {
    request = table_shuffle_request(options);
    if (leader) check_output_path(json, "JSON file");
    if (!(progress_timeout > 0 && progress_timeout <= 1e6)) {
      throw UsageError("--progress-timeout must be more than 0 and at most 1000000 s");
    }
  });
  std::ostream& text = json == "-" ? std::cerr : std::cout;
  TableShuffleResult result;
  {
    ProgressGuardConfig guard;
    guard.timeout_seconds = progress_timeout;
    guard.operation = "shuffle";
    const ProgressGuard watchdog(cluster, guard);
    result = run_table_shuffle(cluster, request);
  }
  if (leader) {
    print_summary(text, request, result, cluster.size());
    text << std::flush;
  }
  run_collectively(cluster.world(), [&] {
    if (!leader) return;
    flush_standard_output();
    if (!json.empty()) write_json(json, summary_json(request, result, cluster.size()));
  });
  return 0;
}

}  // namespace hpcdb
