#include "hpcdb/api/ssb_summary.hpp"

#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hpcdb/data/ssb_csv.hpp"
#include "hpcdb/net/gather.hpp"
#include "hpcdb/query/ssb_catalog.hpp"

namespace hpcdb {
namespace {

nlohmann::ordered_json result_counts(const ResultCounts& c) {
  return {{"tuples", c.tuples},
          {"pieces", c.pieces},
          {"data_bytes", c.data_bytes},
          {"tuple_section_bytes_sent", c.tuple_section_bytes},
          {"tuple_section_bytes_saved", c.tuple_section_saved},
          {"ship_seconds", c.ship_seconds}};
}

nlohmann::ordered_json value_json(const ResultValue& v) {
  switch (v.kind) {
    case ResultValue::Kind::null: return nullptr;
    case ResultValue::Kind::number: return v.number;
    case ResultValue::Kind::text: return v.text;
  }
  return nullptr;
}

}  // namespace

nlohmann::ordered_json storage_numbers(const StorageStats& s, double load_seconds) {
  nlohmann::ordered_json j;
  j["load_seconds"] = load_seconds;
  j["fragment_rows"] = s.fragment_rows;
  j["fragment_bytes"] = s.fragment_bytes;
  j["key_value_bytes"] = s.kv_bytes;
  j["memory"] = {{"resident_bytes", s.memory.resident}, {"peak_resident_bytes", s.memory.peak_resident}};
  j["query_batches"] = s.query_batches;
  nlohmann::ordered_json scans = nlohmann::ordered_json::array();
  for (const auto& [table, t] : s.scans) {
    scans.push_back({{"table", std::string(ssb::table_name(static_cast<ssb::TableId>(table)))},
                     {"cycles", t.cycles},
                     {"per_query_cycles", t.per_query_cycles},
                     {"indexed_cycles", t.indexed_cycles},
                     {"queries", t.queries},
                     {"engine_batches", t.engine_batches},
                     {"rows_scanned", t.scan.rows},
                     {"rows_skipped", t.scan.rows_skipped},
                     {"zones", t.scan.zones},
                     {"zones_skipped", t.scan.zones_skipped},
                     {"candidates", t.scan.candidates},
                     {"matches", t.scan.matches},
                     {"busy_seconds", t.busy_seconds},
                     {"cpu_seconds", t.cpu_seconds},
                     {"phase_seconds",
                      {{"updates", t.phases.updates},
                       {"plan", t.phases.plan},
                       {"evaluate", t.scan.evaluate_seconds},
                       {"emit", t.scan.emit_seconds - t.results.ship_seconds},
                       {"ship", t.results.ship_seconds}}},
                     {"cycle_p50_s", t.cycle_time.quantile(0.5) * 1e-9},
                     {"cycle_max_s", t.cycle_time.quantile(1.0) * 1e-9},
                     {"updates_applied", t.updates_applied},
                     {"results", result_counts(t.results)}});
  }
  j["scans"] = scans;
  nlohmann::ordered_json kv = nlohmann::ordered_json::array();
  for (const auto& [table, t] : s.kv) {
    kv.push_back({{"table", std::string(ssb::table_name(static_cast<ssb::TableId>(table)))},
                  {"cycles", t.cycles},
                  {"lookups", t.lookups},
                  {"found", t.found},
                  {"updates", t.updates},
                  {"results", result_counts(t.results)}});
  }
  j["key_value"] = kv;
  return j;
}

nlohmann::ordered_json engine_numbers(const QueryEngineStats& q, const ssb::WorkloadResult& w) {
  nlohmann::ordered_json j;
  j["measured_seconds"] = w.measured_seconds;
  j["completed"] = w.completed;
  nlohmann::ordered_json by_query;
  for (int i = 0; i < ssb::kQueryNames; ++i) by_query[ssb::label(static_cast<ssb::QueryName>(i))] = w.completed_by_query[static_cast<std::size_t>(i)];
  j["completed_by_query"] = by_query;
  // A starved client shows as one with few answers (or none) beside the others.
  if (!w.completed_by_client.empty()) {
    j["fewest_by_a_client"] = *std::min_element(w.completed_by_client.begin(), w.completed_by_client.end());
    j["most_by_a_client"] = *std::max_element(w.completed_by_client.begin(), w.completed_by_client.end());
  }
  j["point_queries"] = w.point_queries;
  j["updates"] = w.updates;
  j["lookups_found"] = w.lookups_found;
  j["cycles"] = q.star.cycles;
  j["queries_in_cycles"] = q.star.queries;
  j["dimension_tuples"] = q.star.totals.dimension_tuples;
  j["fact_tuples"] = q.star.totals.fact_tuples;
  j["fact_matches"] = q.star.totals.fact_matches;
  j["semi_join_filter_keys"] = q.star.totals.filter_keys;
  j["result_bytes"] = q.star.totals.result_bytes;
  j["most_cycles_in_flight"] = q.star.most_in_flight;
  const CycleCounts& t = q.star.totals;
  j["phase_seconds"] = {{"queue_wait", q.star.phases.queue_wait},
                        {"dimension", q.star.phases.dimension},
                        {"build", t.build_seconds},
                        {"filters", t.filter_seconds},
                        {"fact", q.star.phases.fact},
                        {"probe", t.probe_seconds},
                        {"aggregate", t.aggregate_seconds},
                        {"finish", t.finish_seconds},
                        {"cycle", q.star.phases.cycle}};
  j["cpu_seconds"] = q.star.cpu_seconds;
  j["point_cycles"] = q.lookups.cycles;
  j["query_batches_sent"] = q.stubs.batches;
  j["query_batch_bytes_sent"] = q.stubs.bytes_sent;
  j["messages_received"] = q.stubs.messages_received;
  j["bytes_received"] = q.stubs.bytes_received;
  j["out_of_order"] = q.stubs.out_of_order;
  return j;
}

nlohmann::ordered_json layer_numbers(const MessageLayerStats& s) {
  nlohmann::ordered_json j;
  const char* classes[] = {"latency", "best_effort"};
  for (int c = 0; c < kPriorityClasses; ++c) {
    const auto i = static_cast<std::size_t>(c);
    j[classes[c]] = {{"ring_messages", s.ring_sent[i].messages},
                     {"ring_bytes", s.ring_sent[i].bytes},
                     {"large_messages", s.large_sent[i].messages},
                     {"large_bytes", s.large_sent[i].bytes}};
  }
  j["bytes_sent"] = s.ring_sent[0].bytes + s.ring_sent[1].bytes + s.large_sent[0].bytes + s.large_sent[1].bytes;
  j["pool_peak_bytes"] = s.pool_peak_bytes;
  return j;
}

nlohmann::ordered_json answer_json(const ssb::QueryAnswer& a, int engine) {
  nlohmann::ordered_json j;
  j["query"] = ssb::label(a.query.name);
  j["engine"] = engine;
  j["sql"] = ssb::sql_of(a.query);
  const StarPlan plan = ssb::plan_of(a.query);
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (const OutputColumn& c : plan.output) columns.push_back(c.name);
  j["columns"] = columns;
  nlohmann::ordered_json order = nlohmann::ordered_json::array();
  for (const OrderTerm& t : plan.order_by) order.push_back({t.output, t.descending});
  j["order_by"] = order;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const ResultRow& r : a.rows) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (const ResultValue& v : r) row.push_back(value_json(v));
    rows.push_back(row);
  }
  j["rows"] = rows;
  nlohmann::ordered_json seen = nlohmann::ordered_json::object();
  for (const auto& [fragment, updates] : a.seen) {
    seen[std::string(ssb::table_name(static_cast<ssb::TableId>(fragment.first))) + "/" + std::to_string(fragment.second)] = updates;
  }
  j["seen"] = seen;
  return j;
}

nlohmann::ordered_json update_log_json(const UpdateLog& log, const TableSchema& schema) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const LoggedUpdate& u : log.updates) {
    entries.push_back({u.key, schema.columns[u.column].name, value_json(ssb::render_value(log.table, u.column, u.value))});
  }
  return {{"table", std::string(ssb::table_name(static_cast<ssb::TableId>(log.table)))},
          {"table_id", log.table},
          {"fragment", log.fragment},
          {"log", entries}};
}

void add_histograms(SsbRankShare& share, const ssb::WorkloadResult& w) {
  for (int f = 0; f < ssb::kFlights; ++f) share.histograms[static_cast<std::size_t>(f)].merge(w.latency_by_flight[static_cast<std::size_t>(f)]);
  share.histograms[4].merge(w.latency);
  share.histograms[5].merge(w.point_latency);
}

SsbGathered gather(const Cluster& cluster, const SsbRankShare& share) {
  SsbGathered g;
  // Histograms: element-wise sums.
  std::vector<std::uint64_t> words;
  for (const LatencyHistogram& h : share.histograms) {
    const auto w = h.to_words();
    words.insert(words.end(), w.begin(), w.end());
  }
  std::vector<std::uint64_t> sums(words.size());
  MPI_Reduce(words.data(), sums.data(), static_cast<int>(words.size()), MPI_UINT64_T, MPI_SUM, 0, cluster.world());
  for (int i = 0; i < kSsbHistograms; ++i) {
    std::array<std::uint64_t, LatencyHistogram::kWords> w{};
    std::copy_n(sums.begin() + static_cast<std::ptrdiff_t>(i) * LatencyHistogram::kWords, LatencyHistogram::kWords, w.begin());
    g.histograms[static_cast<std::size_t>(i)] = LatencyHistogram::from_words(w);
  }
  // Numbers and answers: every rank's JSON text to rank 0.
  const std::string text =
      nlohmann::ordered_json{{"numbers", share.numbers}, {"answers", share.answers}, {"updates", share.updates}}.dump();
  for (const std::string& part_text : gather_texts(text, 0, cluster.world())) {
    const auto part = nlohmann::ordered_json::parse(part_text);
    g.ranks.push_back(part["numbers"]);
    for (const auto& a : part["answers"]) g.answers.push_back(a);
    for (const auto& u : part["updates"]) g.updates.push_back(u);
  }
  return g;
}

}  // namespace hpcdb
