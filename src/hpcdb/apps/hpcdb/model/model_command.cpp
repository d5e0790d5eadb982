#include "hpcdb/apps/hpcdb/model/model_command.hpp"

#include "hpcdb/apps/hpcdb/model/model_report.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {

int run_model_command(const Cluster& cluster, const ModelOptions& options) {
  ModelRequest request;
  run_collectively(cluster.world(), [&] { request = to_request(options); });
  const ModelResult result = run_model(cluster, request);
  if (cluster.rank() == 0) print_model_report(request, result);
  return 0;
}

}  // namespace hpcdb
