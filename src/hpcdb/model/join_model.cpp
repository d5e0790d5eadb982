#include "hpcdb/model/join_model.hpp"

#include <algorithm>
#include <cmath>

#include "hpcdb/core/error.hpp"
#include "hpcdb/join/radix/radix_phases.hpp"
#include "hpcdb/join/sorted_join_phases.hpp"
#include "hpcdb/join/sortmerge/sort_merge_phases.hpp"

namespace hpcdb {
namespace {

void require_positive(double value, const char* what) {
  if (!(value > 0)) throw UsageError(std::string("model: ") + what + " must be positive");
}

// P_network (Eq. 3.2), tuples/s per thread; infinite without a network.
double network_rate(const ModelSetting& s) {
  if (s.bandwidth_bytes <= 0 || s.machines <= 1) return INFINITY;
  return s.bandwidth_bytes / s.tuple_bytes / s.threads_per_machine;
}

// A prediction's network facts, before its phases.
ModelPrediction network_figures(const ModelSetting& s) {
  ModelPrediction m;
  m.network_rate_per_thread = network_rate(s);
  m.network_shares_cores = s.network_shares_cores && s.machines > 1;
  return m;
}

// Per-thread rate of a pass that ships (N-1)/N of its output (Eqs. 3.3-3.5, 3.14).
// When the network's work runs on the same cores, every tuple costs its
// compute time plus, for the shipped share, its network time.
double shipping_rate(double compute_rate, double network, double machines, bool shares_cores, bool& network_bound) {
  const double shipped = (machines - 1) / machines;
  network_bound = shipped * compute_rate > network;
  if (shares_cores) return 1.0 / (1.0 / compute_rate + shipped / network);
  if (!network_bound) return compute_rate;
  return machines * compute_rate * network / ((machines - 1) * compute_rate + network);
}

void validate_setting(const ModelSetting& s) {
  require_positive(s.machines, "machines");
  require_positive(s.threads_per_machine, "threads per machine");
  require_positive(s.tuple_bytes, "tuple size");
}

// Runs a worker merges in one sub-range: every sender's share of the
// sub-range is cut into runs, the last one short.
double runs_per_subrange(double tuples, double run_length, double workers, double subranges) {
  const double share = tuples / (workers * workers * subranges);
  return workers * std::ceil(share / run_length - 1e-9);
}

// Eq. 3.17, d = ceil(log_F(runs a worker merges)), counted per sub-range.
unsigned merge_levels(double runs, double fan_in) {
  if (runs <= 1) return 0;
  return static_cast<unsigned>(std::ceil(std::log(runs) / std::log(fan_in) - 1e-9));
}

// Merge levels in units of a full level of fan-in F, as the join runs them:
// a level is a tree of two-way merges, ceil(log2(widest group)) rounds, so a
// level whose groups hold fewer than F runs costs less than a full one.
// Equals merge_levels() whenever every level's widest group needs as many
// rounds as F (the thesis's cases); with key sub-ranges it often does not.
double full_merge_levels(double runs, double fan_in) {
  const double rounds_per_level = std::ceil(std::log2(fan_in) - 1e-9);
  double rounds = 0;
  for (; runs > 1; runs = std::ceil(runs / fan_in - 1e-9)) {
    rounds += std::ceil(std::log2(std::min(fan_in, runs)) - 1e-9);
  }
  return rounds / rounds_per_level;
}

// Sorting n tuples: runs of l, then two-way merge passes up to one run.
double sort_seconds(double n, const StreamJoinRates& r) {
  if (n <= 0) return 0;
  const double passes = n > r.run_length ? std::ceil(std::log2(n / r.run_length) - 1e-9) : 0;
  return n / r.sort_run + passes * n / r.merge;
}

void validate_stream_rates(const StreamJoinRates& r) {
  require_positive(r.scan, "P_scan");
  require_positive(r.sort_run, "P_sort_run");
  require_positive(r.merge, "P_merge");
  require_positive(r.match, "P_match");
  require_positive(r.run_length, "run length");
}

// Seconds to move `tuples` over one rank's link (0 without a network).
double link_seconds(const ModelSetting& s, double tuples) {
  return s.bandwidth_bytes > 0 ? tuples * s.tuple_bytes / s.bandwidth_bytes : 0.0;
}

// Network work and computation overlap, unless they share the cores.
double overlapped(const ModelSetting& s, double compute, double network) {
  return s.network_shares_cores ? compute + network : std::max(compute, network);
}

}  // namespace

double ModelPrediction::seconds_of(const std::string& name) const {
  for (const PhasePrediction& p : phases)
    if (p.name == name) return p.seconds;
  return 0;
}

ModelPrediction predict_radix_join(const ModelSetting& s, const RadixRates& r) {
  validate_setting(s);
  require_positive(r.scan, "P_scan");
  require_positive(r.partition, "P_partition");
  require_positive(r.build, "P_build");
  require_positive(r.probe, "P_probe");
  const double workers = s.machines * s.threads_per_machine;
  const double tuples = s.inner_tuples + s.outer_tuples;
  ModelPrediction m = network_figures(s);
  const double per_thread = shipping_rate(r.partition, m.network_rate_per_thread, s.machines, s.network_shares_cores, m.network_bound);
  const double local_pass_rate = workers * r.partition;       // Eq. 3.7
  m.phases.push_back({radix_phase::histogram, tuples / (workers * r.scan)});  // Eq. 3.1
  m.phases.push_back({radix_phase::window_allocation, s.window_seconds});
  if (s.staged_exchange) {
    // The pass writes locally; then each machine's link carries the share of
    // its tuples owned elsewhere, (N-1)/N of |R|/N + |S|/N (thesis 3.3), with
    // no cross traffic when the schedule keeps senders apart.
    m.phases.push_back({radix_phase::network_partition, tuples / local_pass_rate});
    const double shipped = tuples / s.machines * (s.machines - 1) / s.machines;
    m.phases.push_back({radix_phase::network_exchange, link_seconds(s, shipped)});
    m.network_bound = link_seconds(s, shipped) > tuples / local_pass_rate;
  } else {
    m.phases.push_back({radix_phase::network_partition, tuples / (workers * per_thread)});  // Eqs. 3.4 / 3.6
  }
  m.phases.push_back({radix_phase::local_partition, (r.passes > 1 ? r.passes - 1 : 0) * tuples / local_pass_rate});  // Eq. 3.8
  m.phases.push_back({radix_phase::build_probe, s.inner_tuples / (workers * r.build) + s.outer_tuples / (workers * r.probe)});  // 3.9, 3.10
  for (const PhasePrediction& p : m.phases) m.seconds += p.seconds;  // Eq. 3.11
  if (s.bandwidth_bytes > 0) m.optimal_threads = s.bandwidth_bytes / s.tuple_bytes / r.partition;
  return m;
}

ModelPrediction predict_sort_merge_join(const ModelSetting& s, const SortMergeRates& r) {
  validate_setting(s);
  require_positive(r.scan, "P_scan");
  require_positive(r.partition, "P_partition");
  require_positive(r.sort_run, "P_sort_run");
  require_positive(r.merge, "P_merge");
  require_positive(r.run_length, "run length");
  if (!(r.fan_in >= 2)) throw UsageError("model: the merge fan-in must be at least 2");
  const double workers = s.machines * s.threads_per_machine;
  const double tuples = s.inner_tuples + s.outer_tuples;
  ModelPrediction m = network_figures(s);
  const double per_thread = shipping_rate(r.sort_run, m.network_rate_per_thread, s.machines, s.network_shares_cores, m.network_bound);
  if (!(r.subranges > 0)) throw UsageError("model: the number of key sub-ranges must be positive");
  const double runs_inner = runs_per_subrange(s.inner_tuples, r.run_length, workers, r.subranges);
  const double runs_outer = runs_per_subrange(s.outer_tuples, r.run_length, workers, r.subranges);
  m.merge_levels_inner = merge_levels(runs_inner, r.fan_in);  // Eq. 3.17
  m.merge_levels_outer = merge_levels(runs_outer, r.fan_in);
  const double match_rate = r.match > 0 ? r.match : r.scan;
  m.phases.push_back({sort_merge_phase::partition, tuples / (workers * r.scan) + tuples / (workers * r.partition)});  // 3.1 + 3.7
  m.phases.push_back({sort_merge_phase::window_allocation, s.window_seconds});
  m.phases.push_back({sort_merge_phase::sort, tuples / (workers * per_thread)});  // Eqs. 3.13-3.16
  m.phases.push_back({sort_merge_phase::merge, (full_merge_levels(runs_inner, r.fan_in) * s.inner_tuples +
                                 full_merge_levels(runs_outer, r.fan_in) * s.outer_tuples) /
                                    (workers * r.merge)});  // Eq. 3.18
  m.phases.push_back({sort_merge_phase::match, tuples / (workers * match_rate)});  // Eq. 3.19
  for (const PhasePrediction& p : m.phases) m.seconds += p.seconds;  // Eq. 3.20
  if (s.bandwidth_bytes > 0) m.optimal_threads = s.bandwidth_bytes / s.tuple_bytes / r.sort_run;
  return m;
}

ModelPrediction predict_cyclo_join(const ModelSetting& s, const StreamJoinRates& r) {
  validate_setting(s);
  validate_stream_rates(r);
  const double n = s.machines * s.threads_per_machine;  // ranks in the ring, one worker each
  const double inner = s.inner_tuples / n, part = s.outer_tuples / n;
  ModelPrediction m = network_figures(s);
  const double join_part = (inner + part) / r.match + (r.presort ? 0.0 : sort_seconds(part, r));
  const double network_part = n > 1 ? link_seconds(s, part) : 0.0;
  m.network_bound = network_part > join_part;
  m.phases.push_back({sorted_join_phase::sort, (inner + part) / r.scan + sort_seconds(inner, r) + (r.presort ? sort_seconds(part, r) : 0.0)});
  m.phases.push_back({sorted_join_phase::distribute, (n - 1) * overlapped(s, join_part, network_part)});
  m.phases.push_back({sorted_join_phase::end, join_part});
  for (const PhasePrediction& p : m.phases) m.seconds += p.seconds;
  return m;
}

ModelPrediction predict_broadcast_join(const ModelSetting& s, const StreamJoinRates& r) {
  validate_setting(s);
  validate_stream_rates(r);
  require_positive(r.chunk_tuples, "chunk size");
  const double n = s.machines * s.threads_per_machine;
  const double inner = s.inner_tuples / n;
  const double chunks = std::max(1.0, std::ceil(s.outer_tuples / r.chunk_tuples));
  const double chunk = s.outer_tuples / chunks;
  ModelPrediction m = network_figures(s);
  // Every rank sorts every chunk and joins it with its R, a lookup in R's key
  // directory per chunk tuple (R is far denser than a chunk).
  const double per_chunk = sort_seconds(chunk, r) + chunk / (r.lookup > 0 ? r.lookup : r.match);
  const double network_chunk = n > 1 ? link_seconds(s, chunk) : 0.0;
  m.network_bound = network_chunk > per_chunk;
  m.phases.push_back({sorted_join_phase::sort, inner / r.scan + sort_seconds(inner, r)});
  m.phases.push_back({sorted_join_phase::distribute, (chunks - 1) * overlapped(s, per_chunk, network_chunk) + network_chunk});
  m.phases.push_back({sorted_join_phase::end, per_chunk});
  for (const PhasePrediction& p : m.phases) m.seconds += p.seconds;
  return m;
}

}  // namespace hpcdb
