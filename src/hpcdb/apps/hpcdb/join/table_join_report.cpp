#include "hpcdb/apps/hpcdb/join/table_join_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

std::string keys_text(const TableJoinRequest& request) {
  std::string text;
  for (const auto& [l, r] : request.on.on) text += (text.empty() ? "" : ",") + (l == r ? l : l + "=" + r);
  return text;
}

std::string encoding_text(KeyEncoding encoding) {
  return encoding == KeyEncoding::direct ? "used directly" : "hashed to 64 bits, values compared after the join";
}

// The strategy, with a partitioned join's operator.
std::string strategy_text(const TableJoinPlan& plan) {
  if (plan.strategy == TableJoinStrategy::broadcast) return "broadcast";
  return "partitioned, " + to_string(plan.algorithm);
}

}  // namespace

void print_table_join(std::ostream& out, const TableJoinRequest& request, const TableJoinResult& result, int ranks) {
  const TableJoinPlan& plan = result.plan;
  fmt::print(out, "hpcdb join: {} join of '{}' ({} rows) and '{}' ({} rows) on {}, {} rank{}, {}\n", to_string(request.how),
             request.left.input.path.empty() ? "in memory" : request.left.input.path, format_grouped(result.left_rows),
             request.right.input.path.empty() ? "in memory" : request.right.input.path, format_grouped(result.right_rows),
             keys_text(request), ranks, ranks == 1 ? "" : "s", strategy_text(plan));
  if (plan.strategy == TableJoinStrategy::broadcast) {
    fmt::print(out, "plan: keys {}; {}\n", encoding_text(plan.encoding), plan.materialization);
  } else {
    fmt::print(out, "plan: keys {} ({}-byte tuples), build side {}; {}\n", encoding_text(plan.encoding),
               plan.tuple_bytes, plan.left_is_build ? "left" : "right", plan.materialization);
  }
  fmt::print(out, "{:<12} {:>9} {:>9}\n", "phase", "max s", "mean s");
  for (const PhaseTime& p : result.phases) fmt::print(out, "{:<12} {:>9.3f} {:>9.3f}\n", p.name, p.max, p.mean);
  fmt::print(out, "{:<12} {:>9.3f}\n", "total", result.seconds);
  fmt::print(out, "result: {} rows ({} matching pairs), {} columns", format_grouped(result.result_rows),
             format_grouped(result.pairs), plan.result_columns.size());
  if (result.hash_collisions > 0) fmt::print(out, ", {} hash collisions dropped", format_grouped(result.hash_collisions));
  if (result.keyless_rows > 0) fmt::print(out, ", {} rows with a null key", format_grouped(result.keyless_rows));
  fmt::print(out, "\n");
  if (!request.output.directory.empty()) {
    fmt::print(out, "output: '{}', {} in {} Parquet file{}\n", request.output.directory,
               format_bytes(static_cast<double>(result.output_bytes)), ranks, ranks == 1 ? "" : "s");
  }
  if (plan.strategy == TableJoinStrategy::broadcast) {
    fmt::print(out, "bytes sent: broadcast {}\n", format_bytes(static_cast<double>(result.broadcast_bytes_sent)));
  } else {
    fmt::print(out, "bytes sent: key join {}, materialization {}\n",
               format_bytes(static_cast<double>(result.join_bytes_sent)),
               format_bytes(static_cast<double>(result.materialize_bytes_sent)));
  }
  fmt::print(out, "memory: peak {} per rank (largest rank; estimate before reading {})\n",
             format_bytes(static_cast<double>(result.peak_bytes_per_rank)),
             format_bytes(static_cast<double>(plan.estimate_bytes_per_rank)));
}

nlohmann::ordered_json table_join_json(const TableJoinRequest& request, const TableJoinResult& result, int ranks) {
  nlohmann::ordered_json j;
  j["command"] = "join";
  j["how"] = to_string(request.how);
  j["left"] = request.left.input.path;
  j["right"] = request.right.input.path;
  j["on"] = keys_text(request);
  j["ranks"] = ranks;
  j["strategy"] = to_string(result.plan.strategy);
  j["algorithm"] = to_string(result.plan.algorithm);
  j["left_rows"] = result.left_rows;
  j["right_rows"] = result.right_rows;
  j["result_rows"] = result.result_rows;
  j["pairs"] = result.pairs;
  j["hash_collisions"] = result.hash_collisions;
  j["keyless_rows"] = result.keyless_rows;
  j["seconds"] = result.seconds;
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (const PhaseTime& p : result.phases) phases[p.name] = {{"max", p.max}, {"mean", p.mean}};
  j["phases"] = phases;
  nlohmann::ordered_json key_phases = nlohmann::ordered_json::object();
  for (const PhaseTime& p : result.key_join.phases) key_phases[p.name] = {{"max", p.max}, {"mean", p.mean}};
  j["key_join_phases"] = key_phases;
  j["plan"] = {{"keys", result.plan.encoding == KeyEncoding::direct ? "direct" : "hashed"},
               {"tuple_bytes", result.plan.tuple_bytes},
               {"build_side", result.plan.left_is_build ? "left" : "right"},
               {"materialization", result.plan.strategy == TableJoinStrategy::broadcast ? "broadcast" : "late"},
               {"materialization_reason", result.plan.materialization},
               {"left_row_bytes", result.plan.left_row_bytes},
               {"right_row_bytes", result.plan.right_row_bytes},
               {"result_columns", result.plan.result_columns}};
  j["bytes_sent"] = {{"key_join", result.join_bytes_sent},
                     {"materialization", result.materialize_bytes_sent},
                     {"broadcast", result.broadcast_bytes_sent}};
  j["output"] = {{"directory", request.output.directory},
                 {"bytes", result.output_bytes},
                 {"encodings", encodings_json(result.output_encodings)}};
  j["memory"] = {{"peak_bytes_per_rank", result.peak_bytes_per_rank},
                 {"estimate_bytes_per_rank", result.plan.estimate_bytes_per_rank}};
  return j;
}

}  // namespace hpcdb
