#include "hpcdb/apps/hpcdb/shuffle/shuffle_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <optional>

#include "hpcdb/apps/hpcdb/report_units.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

struct Spread3 {
  double min = 0;
  double mean = 0;
  double max = 0;
};

template <class F>
Spread3 over_ranks(const ShuffleRunRecord& run, F&& value) {
  Spread3 s{1e300, 0, -1e300};
  for (const ShuffleRankStats& r : run.ranks) {
    const double v = value(r);
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    s.mean += v;
  }
  if (run.ranks.empty()) return {};
  s.mean /= static_cast<double>(run.ranks.size());
  return s;
}

double per_second(double amount, double seconds) { return seconds > 0 ? amount / seconds : 0.0; }

Spread3 send_rate(const ShuffleRunRecord& run) {
  return over_ranks(run, [&](const ShuffleRankStats& r) { return per_second(static_cast<double>(r.bytes_sent), run.seconds); });
}
Spread3 off_node_rate(const ShuffleRunRecord& run) {
  return over_ranks(run, [&](const ShuffleRankStats& r) {
    return per_second(static_cast<double>(r.bytes_sent_off_node), run.seconds);
  });
}
Spread3 message_rate(const ShuffleRunRecord& run) {
  return over_ranks(run, [&](const ShuffleRankStats& r) { return per_second(static_cast<double>(r.messages_sent), run.seconds); });
}

double rows_per_second(const ShuffleRequest& plan, const ShuffleRunRecord& run) {
  return per_second(static_cast<double>(plan.workload.rows), run.seconds);
}

std::string distribution_text(const RowWorkloadSpec& w) {
  switch (w.keys) {
    case KeyDistribution::uniform: return "uniform keys";
    case KeyDistribution::zipf:
      return fmt::format("Zipf({}) keys over {} distinct", w.zipf_theta,
                         format_grouped(w.key_domain != 0 ? w.key_domain : std::max<std::uint64_t>(w.rows, 1)));
    case KeyDistribution::all_to_one: return "one key (all rows to rank 0)";
  }
  return "?";
}

std::string check_text(const ShuffleRunRecord& run) {
  if (!run.checked) return "-";
  return run.failure.empty() ? "ok" : "FAILED";
}

// The run with the median time among a design's runs (the lower one of two middles).
const ShuffleRunRecord* median_run(const std::vector<ShuffleRunRecord>& runs, ShuffleDesign design) {
  std::vector<const ShuffleRunRecord*> mine;
  for (const ShuffleRunRecord& r : runs)
    if (r.design == design) mine.push_back(&r);
  if (mine.empty()) return nullptr;
  std::sort(mine.begin(), mine.end(), [](auto* a, auto* b) { return a->seconds < b->seconds; });
  return mine[(mine.size() - 1) / 2];
}

bool all_checked_ok(const std::vector<ShuffleRunRecord>& runs, ShuffleDesign design) {
  for (const ShuffleRunRecord& r : runs)
    if (r.design == design && (!r.checked || !r.failure.empty())) return false;
  return true;
}

std::uint64_t max_registered(const ShuffleDesignRecord& d) {
  std::uint64_t m = 0;
  for (const ShuffleResources& r : d.ranks) m = std::max(m, r.registered_bytes);
  return m;
}

std::uint64_t max_endpoints(const ShuffleDesignRecord& d) {
  std::uint64_t m = 0;
  for (const ShuffleResources& r : d.ranks) m = std::max(m, r.endpoints);
  return m;
}

// The share of all rows the busiest rank received.
double busiest_share(const ShuffleRequest& plan, const ShuffleRunRecord& run) {
  std::uint64_t most = 0;
  for (const ShuffleRankStats& r : run.ranks) most = std::max(most, r.rows_received);
  return plan.workload.rows > 0 ? static_cast<double>(most) / static_cast<double>(plan.workload.rows) : 0.0;
}

std::optional<ModelPrediction> model_of(const ShuffleRequest& plan, const ShuffleOutcome& outcome,
                                        const ShuffleDesignRecord& d, const ShuffleRunRecord& run) {
  return predict(outcome.model_rates, plan.workload, d.config, outcome.shape, busiest_share(plan, run));
}

std::string model_text(const ModelPrediction& m) {
  std::string line;
  for (const PhasePrediction& p : m.phases) line += fmt::format("{}{} {:.4f}", line.empty() ? "" : ", ", p.name, p.seconds);
  return fmt::format("{} -> {:.4f} s ({})", line, m.seconds, m.network_bound ? "network-bound" : "compute-bound");
}

nlohmann::ordered_json model_json(const ModelPrediction& m, double measured) {
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (const PhasePrediction& p : m.phases) phases[p.name] = p.seconds;
  return {{"seconds", m.seconds},
          {"measured_over_model", m.seconds > 0 ? measured / m.seconds : 0.0},
          {"network_bound", m.network_bound},
          {"network_shares_cores", m.network_shares_cores},
          {"phases", phases}};
}


std::string spread_text(const Spread3& s) {
  return fmt::format("{} ({}-{})", megabytes(s.mean), megabytes(s.min), megabytes(s.max));
}

nlohmann::ordered_json spread_json(const Spread3& s) { return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}}; }

// Phase name -> max over ranks.
std::vector<std::pair<std::string, double>> phase_maxima(const ShuffleRunRecord& run) {
  std::vector<std::pair<std::string, double>> result;
  if (run.ranks.empty()) return result;
  for (std::size_t p = 0; p < run.ranks.front().phases.size(); ++p) {
    double m = 0;
    for (const ShuffleRankStats& r : run.ranks) m = std::max(m, r.phases[p].second);
    result.emplace_back(run.ranks.front().phases[p].first, m);
  }
  return result;
}

}  // namespace

void print_shuffle_header(std::ostream& out, const ShuffleRequest& plan, const ShuffleJobShape& shape) {
  const ShuffleConfig& c = plan.designs.front();
  const RowWorkloadSpec& w = plan.workload;
  fmt::print(out, "shuffle: {} rows of {} B ({}) with {}, {} rank{} on {} node{}, {} thread{} per rank\n",
             format_grouped(w.rows), w.row_bytes, format_bytes(static_cast<double>(w.rows) * w.row_bytes),
             distribution_text(w), shape.ranks, shape.ranks == 1 ? "" : "s", shape.nodes, shape.nodes == 1 ? "" : "s",
             c.threads, c.threads == 1 ? "" : "s");
  fmt::print(out, "batches of {} ({} rows), {} credit{} per stream; {} repetition{}{}\n",
             format_bytes(static_cast<double>(c.buffer_bytes)), format_grouped(rows_per_batch(c)), c.buffers,
             c.buffers == 1 ? "" : "s", plan.repeat, plan.repeat == 1 ? "" : "s",
             plan.designs.size() > 1 ? ", designs interleaved" : "");
  fmt::print(out, "{:>4}  {:<14} {:>9} {:>10} {:>16} {:>14}  {}\n", "run", "design", "seconds", "M rows/s",
             "sent MB/s/rank", "msgs/s/rank", "check");
}

void print_shuffle_run(std::ostream& out, const ShuffleRequest& plan, const ShuffleRunRecord& run) {
  fmt::print(out, "{:>4}  {:<14} {:>9.4f} {:>10.2f} {:>16} {:>14.1f}  {}\n", run.repetition, to_string(run.design),
             run.seconds, rows_per_second(plan, run) / 1e6, megabytes(send_rate(run).mean), message_rate(run).mean,
             check_text(run));
  if (!run.failure.empty()) fmt::print(out, "      check failed: {}\n", run.failure);
}

void print_shuffle_summary(std::ostream& out, const ShuffleRequest& plan, const ShuffleOutcome& outcome) {
  const std::vector<ShuffleDesignRecord>& designs = outcome.designs;
  const std::vector<ShuffleRunRecord>& runs = outcome.runs;
  const bool off_node = std::any_of(runs.begin(), runs.end(), [](const ShuffleRunRecord& r) {
    return std::any_of(r.ranks.begin(), r.ranks.end(), [](const ShuffleRankStats& s) { return s.bytes_sent_off_node > 0; });
  });
  const ShuffleRunRecord* baseline = median_run(runs, ShuffleDesign::mpi_alltoallv);
  fmt::print(out, "\nmedian run of {} per design (per rank: mean, min-max over ranks):\n", plan.repeat);
  fmt::print(out, "{:<14} {:>10} {:>7} {:>9}  {:<24}{}  {:>11}  {:>11} {:>9} {:>7}  {}\n", "design", "M rows/s", "vs a2av",
             "seconds", "sent MB/s/rank", off_node ? fmt::format("  {:<24}", "off-node MB/s/rank") : "",
             "msgs/s/rank", "registered", "endpoints", "setup s", "check");
  const ShuffleRunRecord* best = nullptr;
  for (const ShuffleDesignRecord& d : designs) {
    const ShuffleRunRecord* run = median_run(runs, d.config.design);
    if (run == nullptr) continue;
    const std::string ratio = baseline != nullptr ? fmt::format("{:.2f}x", baseline->seconds / run->seconds) : "-";
    fmt::print(out, "{:<14} {:>10.2f} {:>7} {:>9.4f}  {:<24}{}  {:>11.1f}  {:>11} {:>9} {:>7.2f}  {}\n",
               to_string(d.config.design), rows_per_second(plan, *run) / 1e6, ratio, run->seconds,
               spread_text(send_rate(*run)), off_node ? fmt::format("  {:<24}", spread_text(off_node_rate(*run))) : "",
               message_rate(*run).mean, format_bytes(static_cast<double>(max_registered(d))), max_endpoints(d),
               d.setup_seconds, !plan.verify ? "-" : all_checked_ok(runs, d.config.design) ? "ok" : "FAILED");
    if (d.config.design != ShuffleDesign::mpi_alltoallv && (best == nullptr || run->seconds < best->seconds)) best = run;
  }
  if (baseline != nullptr && best != nullptr) {
    fmt::print(out, "best: {} moves {:.2f}x the rows/s of mpi-alltoallv\n", to_string(best->design),
               baseline->seconds / best->seconds);
  }
  fmt::print(out, "phases of the median run (max over ranks, seconds):\n");
  for (const ShuffleDesignRecord& d : designs) {
    const ShuffleRunRecord* run = median_run(runs, d.config.design);
    if (run == nullptr) continue;
    std::string line;
    for (const auto& [name, seconds] : phase_maxima(*run)) line += fmt::format("{}{} {:.4f}", line.empty() ? "" : ", ", name, seconds);
    fmt::print(out, "  {:<14} {}\n", to_string(d.config.design), line);
  }
  if (!outcome.model_rates) return;
  fmt::print(out, "model ({}; per rank, the busiest receiver; seconds) and the median run:\n", plan.calibration);
  for (const ShuffleDesignRecord& d : designs) {
    const ShuffleRunRecord* run = median_run(runs, d.config.design);
    if (run == nullptr) continue;
    const ModelPrediction m = *model_of(plan, outcome, d, *run);
    fmt::print(out, "  {:<14} {}; measured {:.4f} s = {:.2f}x the model\n", to_string(d.config.design), model_text(m),
               run->seconds, m.seconds > 0 ? run->seconds / m.seconds : 0.0);
  }
}

namespace {

using Json = nlohmann::ordered_json;

Json workload_json(const ShuffleRequest& plan, const ShuffleOutcome& outcome) {
  const ShuffleConfig& c = plan.designs.front();
  const RowWorkloadSpec& w = plan.workload;
  Json doc;
  doc["command"] = "shuffle";
  doc["ranks"] = outcome.shape.ranks;
  doc["nodes"] = outcome.shape.nodes;
  doc["threads_per_rank"] = c.threads;
  doc["rows"] = w.rows;
  doc["row_bytes"] = w.row_bytes;
  doc["distribution"] = name_of(w.keys, kKeyDistributionNames);
  if (w.keys == KeyDistribution::zipf) {
    doc["theta"] = w.zipf_theta;
    doc["key_domain"] = w.key_domain != 0 ? w.key_domain : w.rows;
  }
  doc["seed"] = w.seed;
  doc["buffer_size"] = c.buffer_bytes;
  doc["rows_per_batch"] = rows_per_batch(c);
  doc["buffers"] = c.buffers;
  doc["direct_writes"] = c.direct_writes;
  doc["row_writes"] = name_of(c.row_writes, kRowWritesNames);
  doc["repeat"] = plan.repeat;
  doc["verify"] = plan.verify;
  if (outcome.model_rates) doc["calibration"] = plan.calibration;
  return doc;
}

Json designs_json(const std::vector<ShuffleDesignRecord>& designs) {
  Json design_list = Json::array();
  for (const ShuffleDesignRecord& d : designs) {
    Json registered = Json::array();
    Json endpoints = Json::array();
    for (const ShuffleResources& r : d.ranks) {
      registered.push_back(r.registered_bytes);
      endpoints.push_back(r.endpoints);
    }
    design_list.push_back({{"design", to_string(d.config.design)},
                           {"setup_seconds", d.setup_seconds},
                           {"registered_bytes_per_rank", registered},
                           {"endpoints_per_rank", endpoints}});
    if (d.config.design == ShuffleDesign::message_layer) {
      const MessageLayerConfig& l = d.config.layer;
      design_list.back()["message_layer"] = {{"threshold_bytes", l.threshold},
                                             {"ring_bytes", l.ring_bytes},
                                             {"net_threads", l.threads},
                                             {"copies_on_node", copies_on_node(d.config)}};
    }
  }
  return design_list;
}

Json rank_json(const ShuffleRankStats& r, double run_seconds) {
  return {{"seconds", r.seconds},
          {"rows_in", r.rows_in},
          {"rows_received", r.rows_received},
          {"bytes_sent", r.bytes_sent},
          {"bytes_sent_off_node", r.bytes_sent_off_node},
          {"bytes_received", r.bytes_received},
          {"messages_sent", r.messages_sent},
          {"bytes_sent_per_second", per_second(static_cast<double>(r.bytes_sent), run_seconds)},
          {"messages_per_second", per_second(static_cast<double>(r.messages_sent), run_seconds)},
          {"credit_wait_seconds", r.credit_wait_seconds},
          {"drain_seconds", r.drain_seconds}};
}

Json run_json(const ShuffleRequest& plan, const ShuffleRunRecord& run) {
  Json ranks = Json::array();
  for (const ShuffleRankStats& r : run.ranks) ranks.push_back(rank_json(r, run.seconds));
  Json phases = Json::object();
  for (const auto& [name, seconds] : phase_maxima(run)) {
    double sum = 0;
    for (const ShuffleRankStats& r : run.ranks)
      for (const auto& [n, s] : r.phases)
        if (n == name) sum += s;
    phases[name] = {{"max", seconds}, {"mean", run.ranks.empty() ? 0.0 : sum / static_cast<double>(run.ranks.size())}};
  }
  Json entry = {{"design", to_string(run.design)},
                {"repetition", run.repetition},
                {"seconds", run.seconds},
                {"rows_per_second", rows_per_second(plan, run)},
                {"verified", run.checked ? Json(run.failure.empty()) : Json()},
                {"phases", phases},
                {"ranks", ranks}};
  if (!run.failure.empty()) entry["failure"] = run.failure;
  return entry;
}

Json design_summary_json(const ShuffleRequest& plan, const ShuffleOutcome& outcome, const ShuffleDesignRecord& d,
                         const ShuffleRunRecord& run, const ShuffleRunRecord* baseline) {
  Json j = {{"design", to_string(d.config.design)},
            {"median_seconds", run.seconds},
            {"rows_per_second", rows_per_second(plan, run)},
            {"vs_alltoallv", baseline != nullptr ? Json(baseline->seconds / run.seconds) : Json()},
            {"bytes_sent_per_second_per_rank", spread_json(send_rate(run))},
            {"off_node_bytes_sent_per_second_per_rank", spread_json(off_node_rate(run))},
            {"messages_per_second_per_rank", spread_json(message_rate(run))},
            {"registered_bytes_per_rank", max_registered(d)},
            {"endpoints_per_rank", max_endpoints(d)},
            {"verified", plan.verify ? Json(all_checked_ok(outcome.runs, d.config.design)) : Json()}};
  if (const auto m = model_of(plan, outcome, d, run)) j["model"] = model_json(*m, run.seconds);
  return j;
}

}  // namespace

nlohmann::ordered_json shuffle_report_json(const ShuffleRequest& plan, const ShuffleOutcome& outcome) {
  Json doc = workload_json(plan, outcome);
  doc["designs"] = designs_json(outcome.designs);
  Json run_list = Json::array();
  for (const ShuffleRunRecord& run : outcome.runs) run_list.push_back(run_json(plan, run));
  doc["runs"] = run_list;

  const ShuffleRunRecord* baseline = median_run(outcome.runs, ShuffleDesign::mpi_alltoallv);
  Json summary = Json::array();
  const ShuffleRunRecord* best = nullptr;
  for (const ShuffleDesignRecord& d : outcome.designs) {
    const ShuffleRunRecord* run = median_run(outcome.runs, d.config.design);
    if (run == nullptr) continue;
    if (d.config.design != ShuffleDesign::mpi_alltoallv && (best == nullptr || run->seconds < best->seconds)) best = run;
    summary.push_back(design_summary_json(plan, outcome, d, *run, baseline));
  }
  doc["summary"] = summary;
  if (best != nullptr) {
    doc["best"] = {{"design", to_string(best->design)},
                   {"vs_alltoallv", baseline != nullptr ? Json(baseline->seconds / best->seconds) : Json()}};
  }
  return doc;
}

}  // namespace hpcdb
