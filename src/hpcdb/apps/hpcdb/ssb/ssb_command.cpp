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
    if (!o.answers.empty()) write_json(o.answers, gathered.answers);
  });
  return 0;
}

}  // namespace hpcdb
