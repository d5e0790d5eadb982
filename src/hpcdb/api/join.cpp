#include "hpcdb/api/join.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "hpcdb/api/join_memory_check.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/process_memory.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/data/pair_file.hpp"
#include "hpcdb/data/payload_column.hpp"
#include "hpcdb/data/relation_source.hpp"
#include "hpcdb/join/fail_fast.hpp"
#include "hpcdb/join/join_facts.hpp"
#include "hpcdb/join/join_run.hpp"
#include "hpcdb/join/payload/payload_fetch.hpp"
#include "hpcdb/model/join_prediction.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/shared_kernel.hpp"

namespace hpcdb {

bool JoinOutcome::verified() const {
  return !expected || std::all_of(runs.begin(), runs.end(), [&](const JoinResult& r) { return run_matches_expected(r); });
}

namespace {

void validate_failures(const JoinRequest& request, int ranks) {
  const InjectedFailure& phase_failure = request.configs.radix.failure;
  for (const InjectedFailure* f : {&phase_failure, &request.guard.failure}) {
    if (f->rank < -1) throw UsageError("--fail-rank must be a rank (0 or more), or -1 for none");
    if (f->rank >= ranks) {
      throw UsageError("--fail-rank " + std::to_string(f->rank) + " names no rank: this job has ranks 0 to " +
                       std::to_string(ranks - 1));
    }
    if (!(f->after_seconds >= 0 && f->after_seconds <= 1e6)) throw UsageError("--fail-after must be 0 to 1000000 s");
  }
  if (phase_failure.mode == FailureMode::none) return;
  const std::vector<std::string> phases = phases_of(request.configs);
  if (phase_failure.at != kSetupPoint && std::find(phases.begin(), phases.end(), phase_failure.at) == phases.end()) {
    std::string list = kSetupPoint;
    for (const std::string& p : phases) list += ", " + p;
    throw UsageError("--fail-phase must be a phase of this join: " + list);
  }
}

void validate_operators(const JoinConfigs& c) {
  const bool one_worker = c.algorithm == JoinAlgorithm::cyclo || c.algorithm == JoinAlgorithm::broadcast;
  if (one_worker && c.radix.threads > 1) {
    throw UsageError("--algorithm " + to_string(c.algorithm) + " runs one worker per rank; use more ranks instead of --threads");
  }
  validate(c.radix);
  validate(c.sort_merge);
  validate(c.cyclo);
  validate(c.broadcast);
}

// Checks the outputs before anything runs: writable, not an input, not each other.
void check_outputs(const JoinRequest& request) {
  check_output_path(request.report_file, "JSON file");
  check_output_path(request.output, "pair file", StandardOutput::refused);
  std::vector<std::pair<std::string, std::string>> inputs = {{"--calibration", request.calibration}};
  if (const auto* files = std::get_if<RelationFiles>(&request.inputs)) {
    inputs.insert(inputs.begin(), {{"--input-r", files->inner}, {"--input-s", files->outer}});
  }
  refuse_same_files({{"--output", request.output}, {"--json", request.report_file}}, inputs);
}

// Collective: the request checked, and refused when even the densest data of
// its sizes would not fit; returns nothing, throws on every rank alike.
void prepare(const Cluster& cluster, const JoinRequest& request) {
  run_collectively(cluster.world(), [&] {
    validate(request, cluster.size());
    const JoinInputSizes sizes = input_sizes_of(request);
    const JoinPlan least = plan_join(densest_join_facts(cluster, sizes.inner, sizes.outer), request.configs);
    check_join_memory(cluster, request, sizes, memory_of(least), false);
    if (cluster.rank() == 0) check_outputs(request);
  });
}

InputRelations load_inputs(const Cluster& cluster, const JoinRequest& request) {
  if (const auto* files = std::get_if<RelationFiles>(&request.inputs)) {
    return read_relations(cluster, files->inner, files->outer, files->header);
  }
  return generate_relations(cluster, std::get<WorkloadSpec>(request.inputs), request.threads());
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

std::optional<ModelPrediction> model_prediction(const Cluster& cluster, const JoinRequest& request,
                                                const JoinPlan& plan, const InputRelations& inputs) {
  if (request.calibration.empty()) return std::nullopt;
  Calibration calibration;
  run_collectively(cluster.world(), [&] { calibration = read_calibration(request.calibration); });
  ClusterShape job;
  job.ranks = cluster.size();
  job.threads = request.threads();
  job.machines = cluster.node_count();
  job.bandwidth_bytes = calibration.put_bandwidth;
  job.network_shares_cores = nodes_share_a_kernel(cluster);
  return predict_join(request.configs.algorithm, calibration, static_cast<double>(inputs.inner.global_size),
                      static_cast<double>(inputs.outer.global_size), join_shape(plan, job));
}

// Payload splitting: the first run's pairs fetch their tuples' keys and
// payloads; timed as a phase of its own after the join.
JoinedRows fetch_rows(const Cluster& cluster, const JoinRequest& request, const InputRelations& inputs,
                      const std::vector<MatchPair>& pairs, PayloadFetch& fetch) {
  const auto& workload = std::get<WorkloadSpec>(request.inputs);
  const std::size_t width = request.payload_width;
  const PayloadColumn inner = generate_payloads(inputs.inner, workload.seed, RelationSide::inner, width);
  const PayloadColumn outer = generate_payloads(inputs.outer, workload.seed, RelationSide::outer, width);
  FetchStats stats;
  MPI_Barrier(cluster.world());
  const double start = MPI_Wtime();
  JoinedRows rows = fetch_payloads(cluster, pairs, {&inputs.inner, &inner}, {&inputs.outer, &outer}, stats);
  fetch.seconds = allreduce(MPI_Wtime() - start, MPI_MAX, cluster.world());
  fetch.bytes_sent = allreduce(stats.bytes_sent, MPI_SUM, cluster.world());
  fetch.rows = allreduce<std::uint64_t>(rows.rows(), MPI_SUM, cluster.world());
  int match = 1;
  for (std::size_t i = 0; i < rows.rows(); ++i) {
    std::uint64_t keys[2];
    std::memcpy(keys, rows.bytes.data() + i * rows.row_bytes() + 16, sizeof keys);
    if (keys[0] != keys[1]) match = 0;
  }
  fetch.keys_match = allreduce(match, MPI_MIN, cluster.world()) == 1;
  return rows;
}

// Collective: the runs, each shown to the observer as it ends.
void run_repeatedly(const Cluster& cluster, const JoinRequest& request, DistributedJoin& join,
                    const InputRelations& inputs, JoinOutcome& outcome, const JoinRunObserver& observer) {
  for (unsigned k = 1; k <= request.repeat; ++k) {
    JoinResult result;
    fail_fast(cluster, [&] { result = join.run(inputs.inner, inputs.outer); });
    if (k > 1) result.pairs.clear();  // only the first run's pairs are kept
    outcome.runs.push_back(std::move(result));
    if (observer) observer(outcome);
  }
}

// Collective: the checks and outputs after the runs (reference join,
// payloads, the result file).
void finish(const Cluster& cluster, const JoinRequest& request, const InputRelations& inputs, JoinOutcome& outcome) {
  if (request.verify) outcome.expected = reference_join(cluster, inputs.inner, inputs.outer);
  std::optional<JoinedRows> rows;
  if (request.payload_width > 0) {
    outcome.payloads.emplace();
    run_collectively(cluster.world(),
                     [&] { rows = fetch_rows(cluster, request, inputs, outcome.runs.front().pairs, *outcome.payloads); });
    if (!outcome.payloads->keys_match) return;
  }
  if (request.output.empty()) return;
  if (rows) {
    write_row_file(cluster, request.output, rows->bytes, rows->payload_width);
  } else {
    write_pair_file(cluster, request.output, outcome.runs.front().pairs);
  }
}

// The request as the operators run it: they keep the matching pairs when
// there is a result file to write or payloads to fetch.
JoinRequest with_kept_pairs(const JoinRequest& request) {
  JoinRequest effective = request;
  const bool keep = !request.output.empty() || request.payload_width > 0;
  JoinConfigs& c = effective.configs;
  c.radix.keep_pairs = c.sort_merge.keep_pairs = c.cyclo.keep_pairs = c.broadcast.keep_pairs = keep;
  return effective;
}

}  // namespace

void validate(const JoinRequest& request, int ranks) {
  if (request.repeat < 1) throw UsageError("--repeat must be at least 1");
  if (const auto* workload = std::get_if<WorkloadSpec>(&request.inputs)) validate(*workload);
  if (request.payload_width > 4096) throw UsageError("--payload-bytes must be at most 4096");
  if (request.payload_width > 0 && request.from_files()) {
    throw UsageError("--payload-bytes gives generated tuples payloads; with --input-r/--input-s the tuples have none");
  }
  if (!(request.guard.timeout_seconds > 0 && request.guard.timeout_seconds <= 1e6)) {
    throw UsageError("--progress-timeout must be more than 0 and at most 1000000 s");
  }
  validate_failures(request, ranks);
  validate_operators(request.configs);
}

JoinOutcome run_join(const Cluster& cluster, const JoinRequest& asked, const JoinRunObserver& observer) {
  const MPI_Comm world = cluster.world();
  const JoinRequest request = with_kept_pairs(asked);
  prepare(cluster, request);
  // From here on no rank waits forever for a peer that stopped or hangs.
  const ProgressGuard guard(cluster, request.guard);
  PeakMemoryMeter memory;
  memory.start();
  Stopwatch setup;
  const InputRelations inputs = load_inputs(cluster, request);
  // Planned from the agreed facts of the data (a bad plan fails on every rank
  // alike), then built: a failure while the operator allocates, and any in
  // its runs, ends the job from the rank that saw it (fail_fast()).
  JoinOutcome outcome;
  std::uint64_t estimated_bytes = 0;
  run_collectively(world, [&] {
    outcome.plan = plan_join(agreed_join_facts(cluster, inputs.inner, inputs.outer), request.configs);
    const JoinInputSizes sizes{inputs.inner.global_size, inputs.outer.global_size};
    estimated_bytes = check_join_memory(cluster, request, sizes, memory_of(outcome.plan), true);
  });
  std::unique_ptr<DistributedJoin> join;
  fail_fast(cluster, [&] { join = make_join(cluster, outcome.plan); });
  outcome.ranks = cluster.size();
  outcome.nodes = cluster.node_count();
  outcome.setup_seconds = allreduce(setup.seconds(), MPI_MAX, world);
  outcome.inner_header = inputs.inner_header;
  outcome.outer_header = inputs.outer_header;
  outcome.model = model_prediction(cluster, request, outcome.plan, inputs);

  run_repeatedly(cluster, request, *join, inputs, outcome, observer);
  // Before the reference join and the payloads, which are not the join's.
  const std::uint64_t input_bytes = (inputs.inner.tuples.size() + inputs.outer.tuples.size()) * sizeof(Tuple);
  outcome.memory = measured_memory(cluster, memory, input_bytes, estimated_bytes);
  finish(cluster, request, inputs, outcome);
  return outcome;
}

}  // namespace hpcdb
