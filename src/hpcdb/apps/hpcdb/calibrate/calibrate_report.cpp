#include "hpcdb/apps/hpcdb/calibrate/calibrate_report.hpp"

#include <fmt/format.h>

#include <utility>

namespace hpcdb {
namespace {

void print_kernel_rates(std::FILE* text, const Calibration& c) {
  fmt::print(text, "  {:<34} {:>12}\n", "rate", "M tuples/s");
  const std::pair<const char*, double> rows[] = {
      {"P_scan (histogram)", c.scan},
      {"P_partition (2^bits partitions)", c.partition},
      {"P_build (cache-resident)", c.build},
      {"P_probe (cache-resident)", c.probe},
      {"P_sort_run(l)", c.sort_run},
      {"P_merge (two-way merge pass)", c.merge},
      {"P_match", c.match},
      {"P_lookup (sparse, key directory)", c.lookup},
  };
  for (const auto& [name, rate] : rows) fmt::print(text, "  {:<34} {:>12.1f}\n", name, rate / 1e6);
  const std::pair<const char*, WidthRates> shuffle_rows[] = {
      {"shuffle P_count (route only)", c.shuffle_count},
      {"shuffle P_partition (into batches)", c.shuffle_partition},
      {"shuffle P_consume (checksum)", c.shuffle_consume},
  };
  for (const auto& [name, rate] : shuffle_rows) {
    fmt::print(text, "  {:<34} {:>12.1f} (16 B rows), {:.1f} (64 B)\n", name, rate.rows_per_second_16 / 1e6,
               rate.rows_per_second_64 / 1e6);
  }
}

void print_network(std::FILE* text, const CalibrateResult& result) {
  const Calibration& c = result.calibration;
  if (c.put_bandwidth > 0 && result.put_bandwidth_per_machine) {
    fmt::print(text, "  all ranks -> other nodes, per machine {:>7.2f} GB/s\n", c.put_bandwidth / 1e9);
  } else if (c.put_bandwidth > 0) {
    fmt::print(text, "  rank 0 -> 1, 64 KiB MPI_Rput      {:>9.2f} GB/s\n", c.put_bandwidth / 1e9);
    fmt::print(text, "  rank 0 -> 1, 8-byte put + flush   {:>9.2f} us\n", c.put_latency * 1e6);
  }
  if (c.network_shares_cores) fmt::print(text, "  (the nodes share one kernel: the network's work runs on the join's cores)\n");
  fmt::print(text, "  receive windows, open + close      {:>9.2f} ms (median of {})\n", c.window_setup * 1e3,
             result.median_runs);
  if (c.shared_memory_bandwidth > 0) {
    fmt::print(text, "  rank 0 -> 1, shared-memory copy   {:>9.2f} GB/s\n", c.shared_memory_bandwidth / 1e9);
  }
}

void print_threshold_sweep(std::FILE* text, const CalibrateResult& result) {
  const ThresholdSweep& sweep = result.threshold_sweep;
  fmt::print(text, "  message layer, rank 0 -> 1, MB/s:  {:>8} {:>10} {:>10}\n", "bytes", "ring", "two-sided");
  for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
    fmt::print(text, "  {:>41} {:>10.1f} {:>10.1f}\n", sweep.sizes[i], sweep.ring[i] / 1e6, sweep.two_sided[i] / 1e6);
  }
  fmt::print(text,
             "  message layer hybrid threshold    {:>9.0f} bytes (the ring up to it, two-sided above; medians of {})\n",
             result.calibration.message_threshold, result.median_runs);
}

}  // namespace

void print_calibrate_summary(std::FILE* text, const CalibrateRequest& request, const CalibrateResult& result) {
  fmt::print(text, "hpcdb calibrate: per-thread rates on this machine ({} tuples, best of {}{})\n", request.tuples,
             request.repeat, request.concurrent ? ", all ranks at once: the slowest rank" : "");
  print_kernel_rates(text, result.calibration);
  print_network(text, result);
  if (result.calibration.message_threshold > 0) print_threshold_sweep(text, result);
  fmt::print(text, "written to {}\n", request.output == "-" ? "standard output" : request.output);
}

}  // namespace hpcdb
