#include "hpcdb/apps/hpcdb/netbench/netbench_report.hpp"

#include <fmt/format.h>

#include <set>

#include "hpcdb/apps/hpcdb/report_units.hpp"
#include "hpcdb/core/statistics.hpp"
#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

std::string size_text(std::size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{}Mi", bytes >> 20);
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return fmt::format("{}Ki", bytes >> 10);
  return fmt::format("{}", bytes);
}

using Format = std::string (*)(double);
std::string microseconds(double seconds) { return fmt::format("{:.2f}", seconds * 1e6); }

// One row per size, one column per series.
std::string size_table(const std::vector<const SizeSeries*>& columns, Format format) {
  std::set<std::size_t> sizes;
  for (const SizeSeries* s : columns) {
    for (const auto& [bytes, values] : s->rounds) sizes.insert(bytes);
  }
  std::string out = fmt::format("  {:>8}", "bytes");
  for (const SizeSeries* s : columns) out += fmt::format(" {:>12}", s->transport);
  out += "\n";
  for (std::size_t bytes : sizes) {
    out += fmt::format("  {:>8}", size_text(bytes));
    for (const SizeSeries* s : columns) {
      const auto it = s->rounds.find(bytes);
      out += fmt::format(" {:>12}", it == s->rounds.end() ? std::string("-") : format(median(it->second)));
    }
    out += "\n";
  }
  return out;
}

std::vector<const SizeSeries*> all_of(const std::vector<SizeSeries>& v) {
  std::vector<const SizeSeries*> out;
  for (const SizeSeries& s : v) out.push_back(&s);
  return out;
}

template <class Field>
double median_of(const std::vector<MixedStreams>& rounds, Field field) {
  std::vector<double> v;
  for (const MixedStreams& m : rounds) v.push_back(field(m));
  return median(v);
}

LatencyHistogram merged(const PriorityRow& row) {
  LatencyHistogram all;
  for (const PriorityRun& r : row.rounds) all.merge(r.round_trips);
  return all;
}

double median_flood(const PriorityRow& row) {
  std::vector<double> v;
  for (const PriorityRun& r : row.rounds) v.push_back(r.flood.bytes_per_second());
  return median(v);
}

nlohmann::ordered_json series_json(const std::vector<SizeSeries>& all, const char* unit) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const SizeSeries& s : all) {
    for (const auto& [bytes, values] : s.rounds) {
      out.push_back({{"transport", s.transport},
                     {"receivers", s.receivers},
                     {"bytes", bytes},
                     {std::string("median_") + unit, median(values)},
                     {std::string("rounds_") + unit, values}});
    }
  }
  return out;
}

nlohmann::ordered_json throughput_json(const Throughput& t) {
  return {{"seconds", t.seconds},
          {"messages", t.messages},
          {"bytes", t.bytes},
          {"bytes_per_second", t.bytes_per_second()},
          {"messages_per_second", t.messages_per_second()}};
}

}  // namespace

std::string netbench_text(const NetbenchResults& r) {
  std::string out = fmt::format(
      "hpcdb netbench: {} ranks on {} node(s), {} cores; load average {:.2f} before, {:.2f} after\n"
      "  message layer: threshold {} bytes ({}), rings of {}, {} network thread(s); medians over rounds\n",
      r.ranks, r.nodes, r.cores, r.load_before, r.load_after, r.threshold, r.threshold_source,
      format_bytes(static_cast<double>(r.ring_bytes)), r.net_threads);
  if (!r.bandwidth.empty()) {
    out += fmt::format("bandwidth rank 0 -> 1 (windows of {}, then an acknowledgement), MB/s:\n", r.window);
    out += size_table(all_of(r.bandwidth), megabytes);
  }
  if (!r.latency.empty()) {
    out += "ping-pong latency rank 0 <-> 1, half a round trip, us:\n";
    out += size_table(all_of(r.latency), microseconds);
  }
  if (!r.broadcast.empty()) {
    std::set<int> receivers;
    for (const SizeSeries& s : r.broadcast) receivers.insert(s.receivers);
    for (int n : receivers) {
      std::vector<const SizeSeries*> columns;
      for (const SizeSeries& s : r.broadcast) {
        if (s.receivers == n) columns.push_back(&s);
      }
      out += fmt::format("one-to-many, rank 0 -> {} receiver(s), MB/s to each receiver:\n", n);
      out += size_table(columns, megabytes);
    }
  }
  if (!r.mixed.empty()) {
    out += fmt::format("two sizes at once ({} and {} bytes), MB/s and messages/s (alone in brackets):\n",
                       size_text(r.mixed_small), size_text(r.mixed_large));
    out += fmt::format("  {:>12} {:>22} {:>22} {:>22}\n", "transport", "small MB/s", "small msg/s", "large MB/s");
    for (const MixedRow& m : r.mixed) {
      auto bw = [&](auto f) { return median_of(m.rounds, f) / 1e6; };
      out += fmt::format(
          "  {:>12} {:>10.1f} ({:>8.1f}) {:>10.0f} ({:>8.0f}) {:>10.1f} ({:>8.1f})\n", m.transport,
          bw([](const MixedStreams& s) { return s.small_together.bytes_per_second(); }),
          bw([](const MixedStreams& s) { return s.small_alone.bytes_per_second(); }),
          median_of(m.rounds, [](const MixedStreams& s) { return s.small_together.messages_per_second(); }),
          median_of(m.rounds, [](const MixedStreams& s) { return s.small_alone.messages_per_second(); }),
          bw([](const MixedStreams& s) { return s.large_together.bytes_per_second(); }),
          bw([](const MixedStreams& s) { return s.large_alone.bytes_per_second(); }));
    }
  }
  if (!r.priority.empty()) {
    out += fmt::format("round trips of {}-byte pings under a best-effort flood, us:\n", r.ping_bytes);
    out += fmt::format("  {:<44} {:>8} {:>9} {:>9} {:>9} {:>11}\n", "pings, flood", "flood", "p50", "p99", "pings",
                       "flood MB/s");
    for (const PriorityRow& p : r.priority) {
      const LatencyHistogram h = merged(p);
      out += fmt::format("  {:<44} {:>8} {:>9.1f} {:>9.1f} {:>9} {:>11.1f}\n", p.variant,
                         p.flood_bytes == 0 ? std::string("-") : size_text(p.flood_bytes), h.quantile(0.5) / 1e3,
                         h.quantile(0.99) / 1e3, h.count(), median_flood(p) / 1e6);
    }
  }
  return out;
}

nlohmann::ordered_json netbench_json(const NetbenchResults& r) {
  nlohmann::ordered_json j;
  j["ranks"] = r.ranks;
  j["nodes"] = r.nodes;
  j["cores"] = r.cores;
  j["load_average_before"] = r.load_before;
  j["load_average_after"] = r.load_after;
  j["message_layer"] = {{"threshold_bytes", r.threshold},
                        {"threshold_source", r.threshold_source},
                        {"ring_bytes", r.ring_bytes},
                        {"net_threads", r.net_threads}};
  j["window"] = r.window;
  j["bandwidth"] = series_json(r.bandwidth, "bytes_per_second");
  j["latency"] = series_json(r.latency, "half_round_trip_seconds");
  j["broadcast"] = series_json(r.broadcast, "bytes_per_second_per_receiver");
  nlohmann::ordered_json mixed = nlohmann::ordered_json::array();
  for (const MixedRow& m : r.mixed) {
    nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
    for (const MixedStreams& s : m.rounds) {
      rounds.push_back({{"small_together", throughput_json(s.small_together)},
                        {"large_together", throughput_json(s.large_together)},
                        {"small_alone", throughput_json(s.small_alone)},
                        {"large_alone", throughput_json(s.large_alone)}});
    }
    mixed.push_back({{"transport", m.transport}, {"small_bytes", r.mixed_small}, {"large_bytes", r.mixed_large}, {"rounds", rounds}});
  }
  j["mixed"] = mixed;
  nlohmann::ordered_json priority = nlohmann::ordered_json::array();
  for (const PriorityRow& p : r.priority) {
    const LatencyHistogram h = merged(p);
    priority.push_back({{"variant", p.variant},
                        {"ping_bytes", r.ping_bytes},
                        {"flood_bytes", p.flood_bytes},
                        {"round_trips", h.count()},
                        {"round_trip_p50_us", h.quantile(0.5) / 1e3},
                        {"round_trip_p99_us", h.quantile(0.99) / 1e3},
                        {"round_trip_mean_us", h.mean() / 1e3},
                        {"flood_median_bytes_per_second", median_flood(p)}});
  }
  j["priority"] = priority;
  return j;
}

}  // namespace hpcdb
