#include "hpcdb/apps/hpcdb/join/join_command.hpp"

#include <iostream>

#include "hpcdb/api/join.hpp"
#include "hpcdb/apps/hpcdb/join/join_report.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {

int run_join_command(const Cluster& cluster, JoinOptions& options) {
  const MPI_Comm world = cluster.world();
  const bool leader = cluster.rank() == 0;
  JoinRequest request;
  run_collectively(world, [&] { request = to_request(options); });
  // With JSON on standard output, the human summary goes to standard error.
  std::ostream& text = options.json == "-" ? std::cerr : std::cout;
  const auto show_run = [&](const JoinOutcome& so_far) {
    const auto k = static_cast<unsigned>(so_far.runs.size());
    if (leader) {
      if (k == 1) print_header(text, request, so_far);
      print_run(text, so_far, k, request.repeat);
    }
    // Shown as it happens; a full disk or a closed pipe ends the command here.
    run_collectively(world, [&] {
      if (leader) flush_standard_output();
    });
  };
  const JoinOutcome outcome = run_join(cluster, request, show_run);
  if (outcome.payloads) {
    if (leader) print_payloads(text, outcome, request.payload_width);
    if (!outcome.payloads->keys_match) {
      if (leader) std::cerr << "hpcdb: error: a joined row's R and S keys differ\n";
      return 3;
    }
  }
  if (leader) {
    print_summary(text, outcome);
    text << std::flush;
  }
  // Every rank waits for the leader's write: a failure there (a full disk)
  // must end them all.
  run_collectively(world, [&] {
    if (!leader || options.json.empty()) return;
    nlohmann::ordered_json document = nlohmann::ordered_json::array();
    for (unsigned k = 1; k <= outcome.runs.size(); ++k) document.push_back(run_to_json(request, outcome, k));
    write_json(options.json, outcome.runs.size() == 1 ? document[0] : document);
  });
  if (!outcome.verified()) {
    if (leader) std::cerr << "hpcdb: error: the join result differs from the reference join\n";
    return 3;
  }
  return 0;
}

}  // namespace hpcdb
