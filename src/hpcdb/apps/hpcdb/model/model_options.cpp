#include "hpcdb/apps/hpcdb/model/model_options.hpp"

#include "hpcdb/core/units.hpp"

namespace hpcdb {

void add_model_options(CLI::App& model, ModelOptions& o) {
  model.add_option("--algorithm", o.algorithm, "Join algorithm")
      ->check(CLI::IsMember({"radix", "sort-merge", "cyclo", "broadcast"}))
      ->capture_default_str();
  model.add_option("--inner", o.inner, "Tuples of R")->capture_default_str();
  model.add_option("--outer", o.outer, "Tuples of S")->capture_default_str();
  model.add_option("--ranks", o.ranks, "Ranks in the job")->capture_default_str();
  model.add_option("--threads", o.threads, "Worker threads per rank")->capture_default_str();
  model.add_option("--machines", o.machines, "Machines the ranks are spread over")->capture_default_str();
  model.add_option("--bandwidth", o.bandwidth_gbit,
                   "Network bandwidth per machine in Gbit/s (default: the calibration's measured put bandwidth)");
  model.add_option("--calibration", o.calibration, "Rates measured by 'hpcdb calibrate'")->capture_default_str();
  model.add_option("--merge-fan-in", o.merge_fan_in, "sort-merge: runs merged at once")->capture_default_str();
  model.add_option("--subranges", o.subranges,
                   "sort-merge: key sub-ranges per rank (1 = the thesis; 0 = as 'hpcdb join' chooses them)")
      ->capture_default_str();
  model.add_option("--schedule", o.schedule,
                   "radix: 'streaming' (partitions leave while the pass runs), or a schedule of the staged exchange "
                   "(whole partitions after a local pass: synchronized, unsynchronized, random)")
      ->check(CLI::IsMember({"streaming", "synchronized", "unsynchronized", "random"}))
      ->capture_default_str();
  model.add_flag("--shared-cores", o.shared_cores,
                 "The network's work runs on the join's own cores (hosts emulated on one machine, TCP without "
                 "offload): network and compute time add up; implied by a calibration made on such a layout");
}

ModelRequest to_request(const ModelOptions& o) {
  ModelRequest r;
  r.algorithm = parse_join_algorithm(o.algorithm);
  r.inner_tuples = parse_count(o.inner, "--inner");
  r.outer_tuples = parse_count(o.outer, "--outer");
  r.ranks = o.ranks;
  r.threads = o.threads;
  r.machines = o.machines;
  r.bandwidth_bytes = o.bandwidth_gbit * 1e9 / 8;
  r.calibration = o.calibration;
  r.merge_fan_in = o.merge_fan_in;
  r.subranges = o.subranges;
  r.shared_cores = o.shared_cores;
  r.staged_exchange = o.schedule != "streaming";
  if (r.staged_exchange) r.schedule = parse_exchange_schedule(o.schedule);
  return r;
}

}  // namespace hpcdb
