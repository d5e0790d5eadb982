#include "hpcdb/apps/hpcdb/join/join_command.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/apps/hpcdb/join/join_report.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/model/model_command.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/process_memory.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/data/pair_file.hpp"
#include "hpcdb/data/relation_source.hpp"
#include "hpcdb/data/payload_column.hpp"
#include "hpcdb/join/fail_fast.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_plan.hpp"
#include "hpcdb/join/payload/payload_fetch.hpp"
#include "hpcdb/join/reference_join.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/progress_guard.hpp"
#include "hpcdb/net/shared_kernel.hpp"

namespace hpcdb {
namespace {

std::uint64_t binary_tuples_in(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return 0;
  return static_cast<std::uint64_t>(info.st_size) / sizeof(Tuple);
}

// Payload splitting: the first run's pairs fetch their tuples' keys and
// payloads; timed as a phase of its own after the join.
struct PayloadRows {
  JoinedRows rows;
  double seconds = 0;
  std::uint64_t bytes_sent = 0;
  bool keys_match = true;  // every row's two keys are equal
};

PayloadRows fetch_rows(const Cluster& cluster, const JoinOptions& options, const InputRelations& inputs,
                       const std::vector<MatchPair>& pairs) {
  const PayloadColumn inner = generate_payloads(inputs.inner, options.seed, RelationSide::inner, options.payload_width);
  const PayloadColumn outer = generate_payloads(inputs.outer, options.seed, RelationSide::outer, options.payload_width);
  PayloadRows result;
  FetchStats stats;
  MPI_Barrier(cluster.world());
  const double start = MPI_Wtime();
  result.rows = fetch_payloads(cluster, pairs, {&inputs.inner, &inner}, {&inputs.outer, &outer}, stats);
  result.seconds = allreduce(MPI_Wtime() - start, MPI_MAX, cluster.world());
  result.bytes_sent = allreduce(stats.bytes_sent, MPI_SUM, cluster.world());
  int match = 1;
  for (std::size_t i = 0; i < result.rows.rows(); ++i) {
    std::uint64_t keys[2];
    std::memcpy(keys, result.rows.bytes.data() + i * result.rows.row_bytes() + 16, sizeof keys);
    if (keys[0] != keys[1]) match = 0;
  }
  result.keys_match = allreduce(match, MPI_MIN, cluster.world()) == 1;
  return result;
}

// What to change when the join does not fit: the options that drive its memory.
std::string memory_advice(const JoinOptions& options) {
  std::string sizes = options.from_files() ? "smaller inputs" : "smaller --inner/--outer";
  std::string advice = "use " + sizes;
  if (options.is_radix() && options.network_bits >= 20) {
    // From 2^20 partitions on, the per-partition buffers and plan outweigh the tuples.
    advice = fmt::format("--network-bits {} drives most of it (2^{} partitions, each with buffers per thread): use "
                         "fewer --network-bits, {}",
                         options.network_bits, options.network_bits, sizes);
  } else if (options.is_radix()) {
    advice += options.network_bits > 0 ? ", fewer --network-bits" : "";
    advice += ", a smaller --buffer-size or fewer --buffers-per-partition";
  }
  if (options.radix.threads > 1) advice += ", fewer --threads";
  if (options.verify) advice += ", no --verify";
  if (options.payload_width > 0) advice += ", fewer --payload-bytes";
  return advice + ", or spread the job over more nodes";
}

struct InputSizes {
  std::uint64_t inner = 0;
  std::uint64_t outer = 0;
};

InputSizes input_sizes(const JoinOptions& options) {
  if (options.from_files()) return {binary_tuples_in(options.input_r), binary_tuples_in(options.input_s)};
  return {options.workload.inner_tuples, options.workload.outer_tuples};
}

// Refuses a job that cannot fit in this node's memory: the inputs, and what
// the plan for inputs of these sizes sets aside. Checked twice: before
// anything is allocated (the plan for the densest data of these sizes, the
// least it could need), and once the data is there and its plan agreed
// (exact; the inputs are held by then, `inputs_held`). Returns what the join
// itself needs per rank (without the reference join and payloads).
std::uint64_t check_memory(const Cluster& cluster, const JoinOptions& options, InputSizes sizes, const MemoryEstimate& join,
                           bool inputs_held) {
  const int ranks = cluster.size();
  const std::uint64_t input = (sizes.inner + sizes.outer) / static_cast<std::uint64_t>(ranks) * sizeof(Tuple);
  const std::uint64_t join_per_rank = input + join.total() + kRankBaseBytes;
  std::uint64_t per_rank = join_per_rank;
  if (options.payload_width > 0) {
    // Payload columns, and the rows of the result (as many as S's tuples when every one matches).
    per_rank += (sizes.inner + sizes.outer) / static_cast<std::uint64_t>(ranks) * options.payload_width +
                sizes.outer / static_cast<std::uint64_t>(ranks) * (32 + 4 * options.payload_width);
  }
  if (options.verify) per_rank += 2 * input;
  const std::uint64_t per_node = per_rank * static_cast<std::uint64_t>(cluster.node_size());
  const std::uint64_t held = inputs_held ? input * static_cast<std::uint64_t>(cluster.node_size()) : 0;
  if (const std::optional<std::string> shortfall = memory_shortfall(per_node, available_memory_bytes() + held)) {
    throw UsageError(fmt::format("this join ({} rank{} x {}: inputs, receive windows, {} buffers{}) {}; {}",
                                 cluster.node_size(), cluster.node_size() == 1 ? "" : "s",
                                 format_bytes(static_cast<double>(per_rank)),
                                 options.is_radix() ? "partitioning" : "sort and exchange",
                                 options.verify ? ", reference join" : "", *shortfall, memory_advice(options)));
  }
  // Inputs and receive windows live in node-shared memory, often a tmpfs
  // smaller than memory.
  const std::uint64_t shared_per_node = (input + join.node_shared()) * static_cast<std::uint64_t>(cluster.node_size());
  if (const std::optional<std::string> shortfall = shared_memory_shortfall(shared_per_node, kSharedMemoryDirectory, held)) {
    throw UsageError("this join (inputs and receive windows) " + *shortfall + ", or use smaller --inner/--outer");
  }
  return join_per_rank;
}

// The largest rank's peak over the set-up and runs the meter saw.
JoinMemory measured_memory(const Cluster& cluster, const PeakMemoryMeter& meter, std::uint64_t input,
                           std::uint64_t estimate) {
  const MemoryPeak peak = meter.stop();
  const MPI_Comm world = cluster.world();
  JoinMemory m;
  m.peak_bytes = allreduce(peak.total(), MPI_MAX, world);
  // The parts of the rank with the largest peak (the lowest such rank).
  const int largest = allreduce(peak.total() == m.peak_bytes ? cluster.rank() : cluster.size(), MPI_MIN, world);
  std::uint64_t parts[2] = {peak.private_bytes, peak.shared_bytes};
  MPI_Bcast(parts, 2, MPI_UINT64_T, largest, world);
  m.private_bytes = parts[0];
  m.shared_bytes = parts[1];
  m.input_bytes = allreduce(input, MPI_MAX, world);
  m.estimate_bytes = estimate;
  m.since_start = allreduce(peak.since_start ? 1 : 0, MPI_MIN, world) == 1;
  return m;
}

// The model's view of this join: the job's shape and what the plan decided.
JoinShape model_shape(const Cluster& cluster, const JoinOptions& options, const JoinPlan& plan) {
  JoinShape shape{static_cast<double>(cluster.size()), static_cast<double>(options.radix.threads),
                  static_cast<double>(cluster.node_count()), 0,
                  static_cast<double>(options.sort_merge.merge_fan_in), 1, nodes_share_a_kernel(cluster)};
  shape.tuple_bytes = tuple_bytes_of(plan);
  if (const auto* radix = std::get_if<RadixPlan>(&plan)) {
    shape.radix_passes = radix->bits.local > 0 ? 2 : 1;
    shape.radix_staged = radix->config.scheduled;
  }
  if (const auto* sort_merge = std::get_if<SortMergePlan>(&plan)) shape.subranges = sort_merge->subranges;
  shape.presort = options.cyclo.presort;
  shape.chunk_bytes = static_cast<double>(options.algorithm == "cyclo" ? options.cyclo.chunk_bytes
                                                                       : options.broadcast.chunk_bytes);
  return shape;
}

}  // namespace

int run_join_command(const Cluster& cluster, JoinOptions& options) {
  const MPI_Comm world = cluster.world();
  const bool leader = cluster.rank() == 0;
  std::uint64_t estimated_bytes = 0;
  run_collectively(world, [&] {
    resolve(options, cluster.size());
    const InputSizes sizes = input_sizes(options);
    const JoinPlan least = plan_join(densest_join_facts(cluster, sizes.inner, sizes.outer), options.configs());
    check_memory(cluster, options, sizes, memory_of(least), false);
    if (leader) {
      check_output_path(options.json, "JSON file");
      check_output_path(options.output, "pair file", StandardOutput::refused);
      refuse_same_files({{"--output", options.output}, {"--json", options.json}},
                        {{"--input-r", options.input_r}, {"--input-s", options.input_s}, {"--calibration", options.calibration}});
    }
  });
  // With JSON on standard output, the human summary goes to standard error.
  std::ostream& text = options.json == "-" ? std::cerr : std::cout;

  // From here on no rank waits forever for a peer that stopped or hangs.
  const ProgressGuard guard(cluster, options.guard);
  PeakMemoryMeter memory;
  memory.start();
  Stopwatch setup;
  InputRelations inputs = options.from_files()
                              ? read_relations(cluster, options.input_r, options.input_s, options.csv_header)
                              : generate_relations(cluster, options.workload, options.radix.threads);
  // Planned from the agreed facts of the data (a bad plan fails on every rank
  // alike), then built: a failure while the operator allocates, and any in
  // its runs, ends the job from the rank that saw it (fail_fast()).
  JoinPlan plan;
  run_collectively(world, [&] {
    plan = plan_join(agreed_join_facts(cluster, inputs.inner, inputs.outer), options.configs());
    const InputSizes sizes{inputs.inner.global_size, inputs.outer.global_size};
    estimated_bytes = check_memory(cluster, options, sizes, memory_of(plan), true);
  });
  std::unique_ptr<DistributedJoin> join;
  fail_fast(cluster, [&] { join = make_join(cluster, plan, inputs.inner, inputs.outer); });
  RunContext context;
  context.ranks = cluster.size();
  context.nodes = cluster.node_count();
  context.setup_seconds = allreduce(setup.seconds(), MPI_MAX, world);
  context.inner_header = inputs.inner_header;
  context.outer_header = inputs.outer_header;
  if (!options.calibration.empty()) {
    Calibration calibration;
    run_collectively(world, [&] { calibration = read_calibration(options.calibration); });
    JoinShape shape = model_shape(cluster, options, plan);
    shape.bandwidth_bytes = calibration.put_bandwidth;
    context.model = predict_join(options.algorithm, calibration, static_cast<double>(inputs.inner.global_size),
                                 static_cast<double>(inputs.outer.global_size), shape);
  }

  std::vector<JoinResult> results;
  for (unsigned k = 1; k <= options.repeat; ++k) {
    JoinResult result;
    fail_fast(cluster, [&] { result = join->run(inputs.inner, inputs.outer); });
    if (k > 1) result.pairs.clear();  // only the first run's pairs are written
    results.push_back(std::move(result));
    if (leader) {
      if (k == 1) print_header(text, options, context, results.front());
      print_run(text, context, results.back(), k, options.repeat);
    }
    // Shown as it happens; a full disk or a closed pipe ends the command here.
    run_collectively(world, [&] {
      if (leader) flush_standard_output();
    });
  }
  // Before the reference join and the payloads, which are not the join's.
  context.memory = measured_memory(cluster, memory, (inputs.inner.tuples.size() + inputs.outer.tuples.size()) * sizeof(Tuple),
                                   estimated_bytes);
  if (options.verify) context.expected = reference_join(cluster, inputs.inner, inputs.outer);
  std::optional<PayloadRows> payloads;
  if (options.payload_width > 0) {
    run_collectively(world, [&] { payloads = fetch_rows(cluster, options, inputs, results.front().pairs); });
    context.payload_seconds = payloads->seconds;
    context.payload_bytes_sent = payloads->bytes_sent;
    context.payload_rows = allreduce<std::uint64_t>(payloads->rows.rows(), MPI_SUM, world);
    if (leader) print_payloads(text, context, options.payload_width);
    if (!payloads->keys_match) {
      if (leader) std::cerr << "hpcdb: error: a joined row's R and S keys differ\n";
      return 3;
    }
  }
  if (!options.output.empty()) {
    if (payloads) write_row_file(cluster, options.output, payloads->rows.bytes, payloads->rows.payload_width);
    else write_pair_file(cluster, options.output, results.front().pairs);
  }

  bool verified = true;
  if (leader) {
    print_summary(text, context, results);
    if (context.expected) {
      for (const JoinResult& r : results) verified = verified && matches_expected(context, r);
    }
    text << std::flush;
  }
  // Every rank waits for the leader's write: a failure there (a full disk)
  // must end them all.
  run_collectively(world, [&] {
    if (!leader || options.json.empty()) return;
    nlohmann::ordered_json document = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < results.size(); ++i) {
      document.push_back(run_to_json(options, context, results[i], static_cast<unsigned>(i + 1)));
    }
    write_json(options.json, results.size() == 1 ? document[0] : document);
  });
  const int ok = allreduce(verified ? 1 : 0, MPI_MIN, world);
  if (!ok) {
    if (leader) std::cerr << "hpcdb: error: the join result differs from the reference join\n";
    return 3;
  }
  return 0;
}

}  // namespace hpcdb
