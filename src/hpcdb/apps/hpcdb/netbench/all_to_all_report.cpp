#include "hpcdb/apps/hpcdb/netbench/all_to_all_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hpcdb/core/statistics.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

double total_bytes_per_rank(const AllToAllResults& r) {
  return static_cast<double>(r.config.per_peer_bytes) * (r.ranks - 1);
}

double median_seconds(const std::vector<AllToAllRun>& runs) {
  std::vector<double> v;
  for (const AllToAllRun& run : runs) v.push_back(run.seconds);
  return median(v);
}

// Per rank, the median over rounds of one of its figures.
std::vector<double> rank_medians(const std::vector<AllToAllRun>& runs, std::vector<double> AllToAllRun::*field) {
  std::vector<double> out;
  if (runs.empty()) return out;
  for (std::size_t rank = 0; rank < (runs.front().*field).size(); ++rank) {
    std::vector<double> v;
    for (const AllToAllRun& run : runs) v.push_back((run.*field)[rank]);
    out.push_back(median(v));
  }
  return out;
}

}  // namespace

std::string all_to_all_text(const AllToAllResults& r) {
  const AllToAllBenchmarkConfig& c = r.config;
  const double bytes = total_bytes_per_rank(r);
  std::string out = fmt::format(
      "hpcdb netbench --all-to-all: {} ranks on {} node(s); load average {:.2f} before, {:.2f} after\n"
      "  every rank sends {} to every other rank ({} in all) in chunks of {} by {}; medians over {} round{}\n",
      r.ranks, r.nodes, r.load_before, r.load_after, format_bytes(static_cast<double>(c.per_peer_bytes)),
      format_bytes(bytes), format_bytes(static_cast<double>(c.chunk_bytes)),
      c.transport == ExchangeTransport::put ? "one-sided puts" : "two-sided messages", c.rounds, c.rounds == 1 ? "" : "s");
  const double ideal = c.link_bytes_per_second > 0 ? bytes / c.link_bytes_per_second : 0;
  if (ideal > 0) {
    out += fmt::format("  ideal at {:.0f} Mbit/s per rank: {:.3f} s\n", c.link_bytes_per_second * 8 / 1e6, ideal);
  }
  out += fmt::format("  {:<16} {:>10} {:>12} {:>9} {:>22} {:>9}\n", "schedule", "seconds", "Mbit/s/rank",
                     ideal > 0 ? "x ideal" : "", "ranks done sending, s", "waiting");
  for (std::size_t s = 0; s < c.schedules.size(); ++s) {
    const double seconds = median_seconds(r.runs[s]);
    const std::vector<double> sending = rank_medians(r.runs[s], &AllToAllRun::sending);
    const std::vector<double> waiting = rank_medians(r.runs[s], &AllToAllRun::waiting);
    const double waited = waiting.empty() ? 0 : *std::max_element(waiting.begin(), waiting.end());
    out += fmt::format("  {:<16} {:>10.3f} {:>12.1f} {:>9} {:>10.3f} .. {:<9.3f} {:>8.1f}%\n", to_string(c.schedules[s]),
                       seconds, seconds > 0 ? bytes * 8 / seconds / 1e6 : 0.0,
                       ideal > 0 ? fmt::format("{:.2f}", seconds / ideal) : std::string(),
                       *std::min_element(sending.begin(), sending.end()), *std::max_element(sending.begin(), sending.end()),
                       seconds > 0 ? 100 * waited / seconds : 0.0);
  }
  out += "  thesis section 6.1 (16 nodes, 1 GB to every other node, 870 Mbit/s, ideal 141.2 s): synchronized about "
         "160 s (768 Mbit/s, 7% waiting), random about 223 s (551 Mbit/s), unsynchronized 457 s (268 Mbit/s)\n";
  return out;
}

nlohmann::ordered_json all_to_all_json(const AllToAllResults& r) {
  const AllToAllBenchmarkConfig& c = r.config;
  const double bytes = total_bytes_per_rank(r);
  nlohmann::ordered_json schedules = nlohmann::ordered_json::array();
  for (std::size_t s = 0; s < c.schedules.size(); ++s) {
    const double seconds = median_seconds(r.runs[s]);
    nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
    for (const AllToAllRun& run : r.runs[s]) {
      rounds.push_back({{"seconds", run.seconds}, {"sending_seconds", run.sending}, {"waiting_seconds", run.waiting}});
    }
    schedules.push_back({{"schedule", to_string(c.schedules[s])},
                         {"median_seconds", seconds},
                         {"bits_per_second_per_rank", seconds > 0 ? bytes * 8 / seconds : 0.0},
                         {"over_ideal", c.link_bytes_per_second > 0
                                            ? nlohmann::ordered_json(seconds / (bytes / c.link_bytes_per_second))
                                            : nlohmann::ordered_json(nullptr)},
                         {"sending_seconds_per_rank", rank_medians(r.runs[s], &AllToAllRun::sending)},
                         {"waiting_seconds_per_rank", rank_medians(r.runs[s], &AllToAllRun::waiting)},
                         {"rounds", rounds}});
  }
  return {{"test", "all-to-all"},
          {"ranks", r.ranks},
          {"nodes", r.nodes},
          {"load_average_before", r.load_before},
          {"load_average_after", r.load_after},
          {"per_peer_bytes", c.per_peer_bytes},
          {"bytes_per_rank", bytes},
          {"chunk_bytes", c.chunk_bytes},
          {"transport", c.transport == ExchangeTransport::put ? "puts" : "messages"},
          {"rounds", c.rounds},
          {"link_bits_per_second", c.link_bytes_per_second * 8},
          {"ideal_seconds", c.link_bytes_per_second > 0 ? bytes / c.link_bytes_per_second : 0.0},
          {"schedules", schedules}};
}

}  // namespace hpcdb
