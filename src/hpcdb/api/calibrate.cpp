#include "hpcdb/api/calibrate.hpp"

#include <optional>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/model/kernel_calibration.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/shared_kernel.hpp"

namespace hpcdb {
namespace {

KernelCalibrationConfig kernel_config(const CalibrateRequest& r) {
  return {r.tuples, r.partition_bits, r.run_length, r.repeat};
}

// The kernels on rank 0 alone, or on every rank at once (each rate then the slowest rank's).
void measure_kernels(const Cluster& cluster, const CalibrateRequest& request, Calibration& c) {
  if (request.concurrent) {
    MPI_Barrier(cluster.world());
    measure_kernel_rates(kernel_config(request), c);
    take_slowest_rank(cluster.world(), c);
  } else if (cluster.rank() == 0) {
    measure_kernel_rates(kernel_config(request), c);
  }
}

}  // namespace

void validate(const CalibrateRequest& r, int ranks_on_node) {
  if (r.tuples < 4096 || r.tuples > (1ULL << 31)) throw UsageError("--tuples must be between 4096 and 2^31");
  if (r.partition_bits < 1 || r.partition_bits > 16) throw UsageError("--partition-bits must be between 1 and 16");
  if (r.run_length < 16) throw UsageError("--run-length must be at least 16");
  if (r.repeat < 1) throw UsageError("--repeat must be at least 1");
  // The kernels' inputs, scratch and outputs: about six arrays of --tuples
  // tuples (measured: 376 MiB for 4Mi tuples), on every rank of the node with --concurrent.
  const std::uint64_t per_rank = 6 * static_cast<std::uint64_t>(r.tuples) * sizeof(Tuple);
  const std::uint64_t per_node = per_rank * static_cast<std::uint64_t>(r.concurrent ? ranks_on_node : 1);
  if (const std::optional<std::string> shortfall = memory_shortfall(per_node)) {
    throw UsageError("measuring the kernels on " + std::to_string(r.tuples) + " tuples " + *shortfall +
                     "; use fewer --tuples");
  }
}

CalibrateResult run_calibrate(const Cluster& cluster, const CalibrateRequest& request) {
  run_collectively(cluster.world(), [&] {
    validate(request, cluster.node_size());
    if (cluster.rank() == 0) check_output_path(request.output, "calibration file");
  });
  CalibrateResult result;
  Calibration& c = result.calibration;
  c.run_length = static_cast<double>(request.run_length);
  measure_kernels(cluster, request, c);
  measure_put_rates(cluster, request.repeat, c);
  result.put_bandwidth_per_machine = request.concurrent && cluster.node_count() > 1;
  if (result.put_bandwidth_per_machine) c.put_bandwidth = concurrent_put_bandwidth(cluster, request.repeat);
  c.concurrent = request.concurrent;
  c.window_setup = window_setup_seconds(cluster, request.repeat);
  result.median_runs = median_runs(request.repeat);
  c.network_shares_cores = cluster.node_count() > 1 && nodes_share_a_kernel(cluster);
  if (cluster.size() >= 2) {
    result.threshold_sweep = measure_message_threshold(cluster, request.repeat);
    c.message_threshold = static_cast<double>(result.threshold_sweep.threshold);
  }
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() == 0) write_output_file(request.output, "calibration file", to_json(c).dump(2) + "\n");
  });
  return result;
}

}  // namespace hpcdb
