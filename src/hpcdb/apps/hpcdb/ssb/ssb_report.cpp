#include "hpcdb/apps/hpcdb/ssb/ssb_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "hpcdb/core/units.hpp"

namespace hpcdb {
namespace {

using Json = nlohmann::ordered_json;

double per_hour(std::uint64_t n, double seconds) { return seconds > 0 ? 3600.0 * static_cast<double>(n) / seconds : 0; }
double share(double part, double whole) { return whole > 0 ? part / whole : 0; }

Json latency(const LatencyHistogram& h, double scale, const char* unit) {
  const std::string u = unit;
  return {{"count", h.count()},
          {"p50_" + u, h.quantile(0.5) * scale},
          {"p90_" + u, h.quantile(0.9) * scale},
          {"p99_" + u, h.quantile(0.99) * scale},
          {"mean_" + u, h.mean() * scale}};
}

std::uint64_t sum_of(const Json& ranks, const char* part, const char* field) {
  std::uint64_t n = 0;
  for (const Json& r : ranks) {
    if (r.contains(part)) n += r[part].value(field, std::uint64_t{0});
  }
  return n;
}

// The scans of every storage rank, added up per table.
Json scans_by_table(const Json& ranks) {
  std::map<std::string, Json> tables;
  const char* counters[] = {"cycles", "per_query_cycles", "indexed_cycles", "queries", "engine_batches", "rows_scanned",
                            "rows_skipped", "zones", "zones_skipped", "candidates", "matches", "updates_applied"};
  const char* result_counters[] = {"tuples", "pieces", "data_bytes", "tuple_section_bytes_sent", "tuple_section_bytes_saved"};
  for (const Json& r : ranks) {
    if (!r.contains("storage")) continue;
    for (const Json& s : r["storage"]["scans"]) {
      Json& t = tables[s["table"].get<std::string>()];
      t["table"] = s["table"];
      for (const char* c : counters) t[c] = t.value(c, std::uint64_t{0}) + s[c].get<std::uint64_t>();
      for (const char* c : result_counters) t[c] = t.value(c, std::uint64_t{0}) + s["results"][c].get<std::uint64_t>();
      t["busy_seconds"] = std::max(t.value("busy_seconds", 0.0), s["busy_seconds"].get<double>());
      t["cpu_seconds"] = t.value("cpu_seconds", 0.0) + s["cpu_seconds"].get<double>();
      if (!t.contains("phase_seconds")) t["phase_seconds"] = Json::object();
      for (const auto& [phase, seconds] : s["phase_seconds"].items()) {
        t["phase_seconds"][phase] = t["phase_seconds"].value(phase, 0.0) + seconds.get<double>();
      }
    }
  }
  Json out = Json::array();
  for (auto& [name, t] : tables) {
    const auto cycles = t["cycles"].get<std::uint64_t>();
    t["queries_per_cycle"] = cycles == 0 ? 0.0 : static_cast<double>(t["queries"].get<std::uint64_t>()) / static_cast<double>(cycles);
    const double sent = static_cast<double>(t["data_bytes"].get<std::uint64_t>() + t["tuple_section_bytes_sent"].get<std::uint64_t>());
    const double saved = static_cast<double>(t["tuple_section_bytes_saved"].get<std::uint64_t>());
    t["tuple_free_saved_share"] = share(saved, sent + saved);
    out.push_back(t);
  }
  return out;
}

double phase(const Json& phases, const char* name) { return phases.is_object() ? phases.value(name, 0.0) : 0.0; }

// Where the time of a batch cycle went, per cycle (milliseconds of wall time
// on the thread doing it; a scan's evaluate and emit summed over its workers).
void print_time_split(const Json& doc) {
  const Json& q = doc["query_engines"];
  const auto cycles = static_cast<double>(q["cycles"].get<std::uint64_t>());
  const auto queries = static_cast<double>(q["queries_in_cycles"].get<std::uint64_t>());
  if (cycles == 0) return;
  const Json& p = q["phase_seconds"];
  const auto ms = [&](const char* name) { return 1e3 * phase(p, name) / cycles; };
  fmt::print("\n  where a cycle's time goes (ms per cycle; {:.1f} queries per cycle):\n", queries / cycles);
  fmt::print("    query engine: waiting for a cycle {:.1f} ms per query; dimension phase {:.1f} (building the hash tables "
             "{:.1f}); semi-join filters {:.1f}; fact phase {:.1f} (probing {:.1f}, aggregating {:.1f}); result rows "
             "{:.1f}; whole cycle {:.1f}; thread CPU {:.1f}\n",
             1e3 * phase(p, "queue_wait") / queries, ms("dimension"), ms("build"), ms("filters"), ms("fact"), ms("probe"),
             ms("aggregate"), ms("finish"), ms("cycle"), 1e3 * q["cpu_seconds"].get<double>() / cycles);
  for (const Json& t : doc["storage"]["scans"]) {
    const auto n = static_cast<double>(t["cycles"].get<std::uint64_t>());
    if (n == 0) continue;
    const Json& sp = t["phase_seconds"];
    const auto zones = static_cast<double>(t["zones"].get<std::uint64_t>());
    fmt::print("    scan {:<9}: {:.1f} ms busy per cycle (updates {:.1f}, plan {:.1f}, predicates {:.1f}, records {:.1f}, "
               "shipping {:.1f}; thread CPU {:.1f}); {:.0f}% of zones skipped; {} of {} cycles per query\n",
               t["table"].get<std::string>(), 1e3 * t["busy_seconds"].get<double>() / n, 1e3 * phase(sp, "updates") / n,
               1e3 * phase(sp, "plan") / n, 1e3 * phase(sp, "evaluate") / n, 1e3 * phase(sp, "emit") / n,
               1e3 * phase(sp, "ship") / n, 1e3 * t["cpu_seconds"].get<double>() / n,
               zones > 0 ? 100 * static_cast<double>(t["zones_skipped"].get<std::uint64_t>()) / zones : 0.0,
               t["per_query_cycles"].get<std::uint64_t>(), t["cycles"].get<std::uint64_t>());
  }
}

Json config_section(const SsbOptions& o, const SsbRequest& run, const Deployment& d) {
  Json c;
  c["scale"] = o.scale;
  c["seed"] = o.seed;
  c["deployment"] = to_string(d.mode());
  c["ranks"] = d.ranks();
  c["storage_engines"] = d.storage_engines();
  c["query_engines"] = d.query_engines();
  c["placement"] = run.placement;
  c["queries"] = o.queries;
  c["clients_per_engine"] = run.workload.mix == ssb::QueryMix::standard ? std::min(13 * o.rounds, o.clients) : o.clients;
  c["duration_s"] = o.duration;
  c["warmup_s"] = o.warmup;
  c["lookup_clients_per_engine"] = o.lookup_clients;
  c["lookup_think_ms"] = o.lookup_think_ms;
  c["update_fraction"] = o.update_fraction;
  c["kv_table"] = o.kv_table;
  c["priorities"] = run.storage.priorities ? "on" : "off";
  c["priorities_option"] = o.priorities;
  c["semi_join_filters"] = o.semi_join_filters;
  c["tuple_free"] = o.tuple_free;
  c["piece_bytes"] = run.storage.scan.piece_bytes;
  c["scan_threads"] = run.storage.scan.workers;
  c["predicate_evaluation"] = o.predicate_evaluation;
  c["cycle_queries"] = o.cycle_queries;
  c["cycles_in_flight"] = o.cycles_in_flight;
  c["net_threads"] = run.layer.threads;
  c["threshold"] = run.layer.threshold;
  c["priority_policy"] = to_string(run.layer.priority_policy);
  c["net_idle_sleep_us"] = run.layer.idle_sleep_us;
  c["bulk_threads"] = run.storage.scan.background ? "idle scheduling class" : "normal";

  return c;
}

// Queries completed, per flight and per query, and the point queries.
void add_query_sections(Json& doc, const SsbGathered& g) {
  double measured = 0;
  for (const Json& r : g.ranks) {
    if (r.contains("query_engine")) measured = std::max(measured, r["query_engine"]["measured_seconds"].get<double>());
  }
  const std::uint64_t completed = sum_of(g.ranks, "query_engine", "completed");
  doc["throughput"] = {{"completed", completed}, {"measured_seconds", measured}, {"queries_per_hour", per_hour(completed, measured)}};
  Json flights = Json::array();
  for (int f = 0; f < 5; ++f) {
    const LatencyHistogram& h = g.histograms[static_cast<std::size_t>(f)];
    Json j = latency(h, 1e-9, "s");
    j["flight"] = f < 4 ? Json(f + 1) : Json("all");
    j["queries_per_hour"] = per_hour(h.count(), measured);
    flights.push_back(j);
  }
  doc["flights"] = flights;
  Json by_query = Json::object();
  for (const Json& r : g.ranks) {
    if (!r.contains("query_engine")) continue;
    for (const auto& [name, n] : r["query_engine"]["completed_by_query"].items()) by_query[name] = by_query.value(name, std::uint64_t{0}) + n.get<std::uint64_t>();
  }
  doc["completed_by_query"] = by_query;
  // Over every engine's clients (random mix only).
  std::optional<std::uint64_t> fewest, most;
  for (const Json& r : g.ranks) {
    if (!r.contains("query_engine") || !r["query_engine"].contains("fewest_by_a_client")) continue;
    const auto low = r["query_engine"]["fewest_by_a_client"].get<std::uint64_t>();
    const auto high = r["query_engine"]["most_by_a_client"].get<std::uint64_t>();
    fewest = std::min(fewest.value_or(low), low);
    most = std::max(most.value_or(high), high);
  }
  if (fewest) doc["throughput"]["by_a_client"] = {{"fewest", *fewest}, {"most", *most}};
  const LatencyHistogram& points = g.histograms[5];
  doc["point_queries"] = latency(points, 1e-6, "ms");
  doc["point_queries"]["updates"] = sum_of(g.ranks, "query_engine", "updates");
  doc["point_queries"]["found"] = sum_of(g.ranks, "query_engine", "lookups_found");
  doc["point_queries"]["per_second"] = measured > 0 ? static_cast<double>(points.count()) / measured : 0;

}

void add_storage_section(Json& doc, const SsbGathered& g) {
  Json& s = doc["storage"];
  double load = 0;
  for (const Json& r : g.ranks) {
    if (r.contains("storage")) load = std::max(load, r["storage"]["load_seconds"].get<double>());
  }
  s["load_seconds"] = load;
  s["fragment_rows"] = sum_of(g.ranks, "storage", "fragment_rows");
  s["fragment_bytes"] = sum_of(g.ranks, "storage", "fragment_bytes");
  s["key_value_bytes"] = sum_of(g.ranks, "storage", "key_value_bytes");
  std::uint64_t peak = 0;
  for (const Json& r : g.ranks) {
    if (r.contains("storage")) peak = std::max(peak, r["storage"]["memory"]["peak_resident_bytes"].get<std::uint64_t>());
  }
  s["memory"] = {{"peak_resident_bytes", peak}};  // the largest of the storage ranks
  s["scans"] = scans_by_table(g.ranks);

}

void add_query_engine_section(Json& doc, const SsbGathered& g) {
  Json& q = doc["query_engines"];
  const char* engine_counters[] = {"cycles", "queries_in_cycles", "dimension_tuples", "fact_tuples", "fact_matches",
                                   "semi_join_filter_keys", "result_bytes", "query_batches_sent", "query_batch_bytes_sent",
                                   "messages_received", "bytes_received", "out_of_order"};
  for (const char* k : engine_counters) q[k] = sum_of(g.ranks, "query_engine", k);
  q["cpu_seconds"] = 0.0;
  q["phase_seconds"] = Json::object();
  for (const Json& r : g.ranks) {
    if (!r.contains("query_engine")) continue;
    q["cpu_seconds"] = q["cpu_seconds"].get<double>() + r["query_engine"]["cpu_seconds"].get<double>();
    for (const auto& [phase, seconds] : r["query_engine"]["phase_seconds"].items()) {
      q["phase_seconds"][phase] = q["phase_seconds"].value(phase, 0.0) + seconds.get<double>();
    }
  }

}

void add_bytes_moved(Json& doc, const SsbGathered& g) {
  const Json& s = doc["storage"];
  std::uint64_t moved = 0, latency_bytes = 0;
  for (const Json& r : g.ranks) {
    moved += r["layer"]["bytes_sent"].get<std::uint64_t>();
    latency_bytes += r["layer"]["latency"]["ring_bytes"].get<std::uint64_t>() + r["layer"]["latency"]["large_bytes"].get<std::uint64_t>();
  }
  std::uint64_t data = 0, saved = 0, sections = 0;
  for (const Json& t : s["scans"]) {
    data += t["data_bytes"].get<std::uint64_t>();
    saved += t["tuple_section_bytes_saved"].get<std::uint64_t>();
    sections += t["tuple_section_bytes_sent"].get<std::uint64_t>();
  }
  doc["bytes_moved"] = {{"between_ranks", moved},
                        {"latency_sensitive", latency_bytes},
                        {"best_effort", moved - latency_bytes},
                        {"result_data_sections", data},
                        {"result_tuple_sections", sections},
                        {"saved_by_tuple_free_results", saved},
                        {"saved_share", share(static_cast<double>(saved), static_cast<double>(data + sections + saved))}};
}

}  // namespace

Json ssb_document(const SsbOptions& o, const SsbRequest& run, const Deployment& d, const SsbGathered& g) {
  Json doc;
  doc["command"] = "ssb";
  doc["config"] = config_section(o, run, d);
  add_query_sections(doc, g);
  add_storage_section(doc, g);
  add_query_engine_section(doc, g);
  add_bytes_moved(doc, g);
  doc["ranks"] = g.ranks;
  return doc;
}

void print_ssb_report(const Json& doc) {
  const Json& c = doc["config"];
  fmt::print("hpcdb ssb: scale factor {}, {} deployment on {} rank(s): {} storage engine(s), {} query engine(s); "
             "placement {}\n",
             c["scale"].get<double>(), c["deployment"].get<std::string>(), c["ranks"].get<int>(),
             c["storage_engines"].get<int>(), c["query_engines"].get<int>(), c["placement"].get<std::string>());
  fmt::print("  {} queries, {} clients per engine, {} lookup client(s); priorities {}, semi-join filters {}, tuple-free "
             "results {}; loaded in {:.1f} s ({})\n",
             c["queries"].get<std::string>(), c["clients_per_engine"].get<unsigned>(),
             c["lookup_clients_per_engine"].get<unsigned>(), c["priorities"].get<std::string>(),
             c["semi_join_filters"].get<std::string>(), c["tuple_free"].get<std::string>(),
             doc["storage"]["load_seconds"].get<double>(),
             format_bytes(static_cast<double>(doc["storage"]["fragment_bytes"].get<std::uint64_t>())));
  const Json& t = doc["throughput"];
  fmt::print("\n  {:>7} {:>9} {:>14} {:>9} {:>9} {:>9}\n", "flight", "queries", "queries/hour", "p50 s", "p90 s", "p99 s");
  for (const Json& f : doc["flights"]) {
    const std::string name = f["flight"].is_string() ? f["flight"].get<std::string>() : std::to_string(f["flight"].get<int>());
    fmt::print("  {:>7} {:>9} {:>14} {:>9.3f} {:>9.3f} {:>9.3f}\n", name, format_grouped(f["count"].get<std::uint64_t>()),
               format_grouped(static_cast<std::uint64_t>(f["queries_per_hour"].get<double>())), f["p50_s"].get<double>(),
               f["p90_s"].get<double>(), f["p99_s"].get<double>());
  }
  fmt::print("  {} queries in {:.1f} s: {} queries/hour\n", format_grouped(t["completed"].get<std::uint64_t>()),
             t["measured_seconds"].get<double>(), format_grouped(static_cast<std::uint64_t>(t["queries_per_hour"].get<double>())));
  if (t.contains("by_a_client")) {
    fmt::print("  answers a client got in the window: fewest {}, most {}\n",
               format_grouped(t["by_a_client"]["fewest"].get<std::uint64_t>()),
               format_grouped(t["by_a_client"]["most"].get<std::uint64_t>()));
  }
  const Json& p = doc["point_queries"];
  if (p["count"].get<std::uint64_t>() > 0) {
    fmt::print("  point queries: {} ({} updates, {:.0f}/s), latency p50 {:.3f} ms, p90 {:.3f} ms, p99 {:.3f} ms\n",
               format_grouped(p["count"].get<std::uint64_t>()), format_grouped(p["updates"].get<std::uint64_t>()),
               p["per_second"].get<double>(), p["p50_ms"].get<double>(), p["p90_ms"].get<double>(), p["p99_ms"].get<double>());
  }
  fmt::print("\n  {:<10} {:>7} {:>13} {:>15} {:>14} {:>12} {:>12} {:>8}\n", "scan", "cycles", "queries/cycle",
             "rows scanned", "result tuples", "data", "not sent", "saved");
  for (const Json& s : doc["storage"]["scans"]) {
    fmt::print("  {:<10} {:>7} {:>13.1f} {:>15} {:>14} {:>12} {:>12} {:>7.1f}%\n", s["table"].get<std::string>(),
               s["cycles"].get<std::uint64_t>(), s["queries_per_cycle"].get<double>(),
               format_grouped(s["rows_scanned"].get<std::uint64_t>()), format_grouped(s["tuples"].get<std::uint64_t>()),
               format_bytes(static_cast<double>(s["data_bytes"].get<std::uint64_t>())),
               format_bytes(static_cast<double>(s["tuple_section_bytes_saved"].get<std::uint64_t>())),
               100 * s["tuple_free_saved_share"].get<double>());
  }
  const Json& q = doc["query_engines"];
  fmt::print("\n  query engines: {} batch cycles, {:.1f} queries per cycle; {} dimension and {} fact tuples joined, {} "
             "semi-join filter keys sent\n",
             q["cycles"].get<std::uint64_t>(),
             q["cycles"].get<std::uint64_t>() == 0 ? 0.0 : static_cast<double>(q["queries_in_cycles"].get<std::uint64_t>()) /
                                                           static_cast<double>(q["cycles"].get<std::uint64_t>()),
             format_grouped(q["dimension_tuples"].get<std::uint64_t>()), format_grouped(q["fact_tuples"].get<std::uint64_t>()),
             format_grouped(q["semi_join_filter_keys"].get<std::uint64_t>()));
  const Json& b = doc["bytes_moved"];
  fmt::print("  bytes moved between ranks: {} ({} latency-sensitive); results' tuple sections not sent (tuple-free): {} "
             "({:.1f}% of the results)\n",
             format_bytes(static_cast<double>(b["between_ranks"].get<std::uint64_t>())),
             format_bytes(static_cast<double>(b["latency_sensitive"].get<std::uint64_t>())),
             format_bytes(static_cast<double>(b["saved_by_tuple_free_results"].get<std::uint64_t>())),
             100 * b["saved_share"].get<double>());
  fmt::print("  storage rank memory: {} peak resident ({} of table fragments, {} of key-value copies)\n",
             format_bytes(static_cast<double>(doc["storage"]["memory"]["peak_resident_bytes"].get<std::uint64_t>())),
             format_bytes(static_cast<double>(doc["storage"]["fragment_bytes"].get<std::uint64_t>())),
             format_bytes(static_cast<double>(doc["storage"]["key_value_bytes"].get<std::uint64_t>())));
  print_time_split(doc);
}

}  // namespace hpcdb
