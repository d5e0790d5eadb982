#include "hpcdb/apps/hpcdb/join/table_join_command.hpp"

#include <iostream>

#include "hpcdb/api/table_join.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/join/table_join_options.hpp"
#include "hpcdb/apps/hpcdb/join/table_join_report.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/progress_guard.hpp"

namespace hpcdb {

int run_table_join_command(const Cluster& cluster, JoinOptions& options) {
  const bool leader = cluster.rank() == 0;
  TableJoinRequest request;
  run_collectively(cluster.world(), [&] {
    request = table_join_request(options, cluster.size());
    if (leader) check_output_path(options.json, "JSON file");
  });
  std::ostream& text = options.json == "-" ? std::cerr : std::cout;
  TableJoinResult result;
  {
    const ProgressGuard guard(cluster, request.guard);
    result = run_table_join(cluster, request);
  }
  if (leader) {
    print_table_join(text, request, result, cluster.size());
    text << std::flush;
  }
  run_collectively(cluster.world(), [&] {
    if (!leader) return;
    flush_standard_output();
    if (!options.json.empty()) write_json(options.json, table_join_json(request, result, cluster.size()));
  });
  return 0;
}

}  // namespace hpcdb
