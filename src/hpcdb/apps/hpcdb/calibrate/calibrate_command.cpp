#include "hpcdb/apps/hpcdb/calibrate/calibrate_command.hpp"

#include <cstdio>

#include "hpcdb/apps/hpcdb/calibrate/calibrate_report.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {

int run_calibrate_command(const Cluster& cluster, const CalibrateOptions& options) {
  CalibrateRequest request;
  run_collectively(cluster.world(), [&] { request = to_request(options); });
  const CalibrateResult result = run_calibrate(cluster, request);
  if (cluster.rank() != 0) return 0;
  // With the calibration on standard output, the summary goes to standard error.
  print_calibrate_summary(request.output == "-" ? stderr : stdout, request, result);
  return 0;
}

}  // namespace hpcdb
