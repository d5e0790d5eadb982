#include "hpcdb/apps/hpcdb/ssb/ssb_command.hpp"

#include <memory>

#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/ssb/ssb_report.hpp"
#include "hpcdb/api/ssb_summary.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {
namespace {

// The SQL of the random queries clients 0..N-1 of query engine 0 would run.
nlohmann::ordered_json query_stream(const SsbOptions& o, const SsbRequest& run) {
  nlohmann::ordered_json clients = nlohmann::ordered_json::array();
  for (unsigned c = 0; c < o.clients; ++c) {
    CounterRng rng = ssb::client_stream(o.seed, 0, c);
    nlohmann::ordered_json queries = nlohmann::ordered_json::array();
    for (unsigned i = 0; i < o.stream_length; ++i) {
      const ssb::SsbQuery q = ssb::draw_query(rng, run.workload.queries);
      queries.push_back({{"query", ssb::label(q.name)}, {"flight", ssb::flight(q.name)}, {"sql", ssb::sql_of(q)}});
    }
    clients.push_back(queries);
  }
  return {{"scale", o.scale}, {"seed", o.seed}, {"clients", clients}};
}

// The answers file: the run's data and deployment, every engine's answers,
// and the update logs of the key-value fragments (each table's logs by
// fragment), which the answers' "seen" counts are prefixes of.
nlohmann::ordered_json answers_document(const SsbOptions& o, const SsbLayout& layout, const SsbGathered& g) {
  nlohmann::ordered_json updates = nlohmann::ordered_json::object();
  for (const auto& log : g.updates) {
    const std::string table = log["table"].get<std::string>();
    const auto fragments = layout.placement.engines_of(log["table_id"].get<std::size_t>()).size();
    if (!updates.contains(table)) updates[table] = nlohmann::ordered_json::array();
    while (updates[table].size() < fragments) updates[table].push_back(nlohmann::ordered_json::array());
    updates[table][log["fragment"].get<std::size_t>()] = log["log"];
  }
  return {{"config",
           {{"scale", o.scale},
            {"seed", o.seed},
            {"deployment", to_string(layout.deployment.mode())},
            {"storage_engines", layout.deployment.storage_engines()},
            {"query_engines", layout.deployment.query_engines()}}},
          {"answers", g.answers},
          {"updates", updates}};
}

}  // namespace

int run_ssb_command(const Cluster& cluster, const SsbOptions& o) {
  SsbRequest request;
  std::unique_ptr<SsbLayout> layout;
  run_collectively(cluster.world(), [&] {
    request = resolve(o, cluster.size());
    layout = std::make_unique<SsbLayout>(ssb_layout(request, cluster.size()));
  });
  if (!o.stream_sql.empty()) {
    run_collectively(cluster.world(), [&] {
      if (cluster.rank() == 0) write_json(o.stream_sql, query_stream(o, request));
    });
    return 0;
  }
  const SsbGathered gathered = run_ssb(cluster, request);
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    const nlohmann::ordered_json document = ssb_document(o, request, layout->deployment, gathered);
    print_ssb_report(document);
    if (!o.json.empty()) write_json(o.json, document);
    if (!o.answers.empty()) write_json(o.answers, answers_document(o, *layout, gathered));
  });
  return 0;
}

}  // namespace hpcdb
