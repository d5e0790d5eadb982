#include "hpcdb/apps/hpcdb/netbench/netbench_command.hpp"

#include <iostream>

#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/netbench/all_to_all_report.hpp"
#include "hpcdb/apps/hpcdb/netbench/netbench_report.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {
namespace {

// Rank 0 reports; a failed output ends every rank.
template <class Results, class Text, class Json>
void report(const Cluster& cluster, const NetbenchOptions& o, std::ostream& text, const Results& results, Text to_text,
            Json to_json) {
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() != 0) return;
    text << to_text(results) << std::flush;
    if (!o.json.empty()) write_json(o.json, to_json(results));
  });
}

int run_all_to_all_command(const Cluster& cluster, const NetbenchOptions& o) {
  AllToAllRequest request;
  run_collectively(cluster.world(), [&] {
    request = to_all_to_all_request(o);
    validate(request, cluster.size(), cluster.node_size());
    if (cluster.rank() == 0) check_output_path(o.json, "JSON file");
  });
  const AllToAllResults results = run_all_to_all(cluster, request);
  report(cluster, o, o.json == "-" ? std::cerr : std::cout, results, all_to_all_text, all_to_all_json);
  return 0;
}

}  // namespace

int run_netbench_command(const Cluster& cluster, const NetbenchOptions& o) {
  if (o.all_to_all) return run_all_to_all_command(cluster, o);
  NetbenchRequest request;
  run_collectively(cluster.world(), [&] {
    request = to_netbench_request(o);
    validate(request, cluster.size());
    if (cluster.rank() == 0) check_output_path(o.json, "JSON file");
  });
  // With JSON on standard output, the tables go to standard error.
  std::ostream& text = o.json == "-" ? std::cerr : std::cout;
  const NetbenchResults results = run_netbench(cluster, request, [&](unsigned done, unsigned rounds) {
    if (cluster.rank() == 0) text << "round " << done << " of " << rounds << " done\n" << std::flush;
  });
  report(cluster, o, text, results, netbench_text, netbench_json);
  return 0;
}

}  // namespace hpcdb
