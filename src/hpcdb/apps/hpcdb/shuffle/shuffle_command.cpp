#include "hpcdb/apps/hpcdb/shuffle/shuffle_command.hpp"

#include <algorithm>
#include <iostream>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/shuffle/shuffle_report.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/named_values.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/net/agreement.hpp"

namespace hpcdb {

void add_shuffle_options(CLI::App& shuffle, ShuffleOptions& o) {
  shuffle.add_option("--tuples", o.tuples, "Rows over all ranks (suffixes K, M, G or Ki, Mi, Gi), spread evenly")
      ->capture_default_str();
  shuffle.add_option("--width", o.width,
                     "Bytes per row: a 64-bit key, then payload; a multiple of 8 from 16 to 4096 (16, 32 and 64 "
                     "are partitioned through write-combining, other widths row by row)")
      ->capture_default_str();
  shuffle.add_option("--distribution", o.distribution,
                     "Keys: uniform (random 64-bit), zipf (Zipf(--theta) ranks over --keys distinct keys, so some "
                     "destinations get more) or all-to-one (one key: every row goes to rank 0)")
      ->capture_default_str();
  shuffle.add_option("--theta", o.theta, "Zipf exponent for --distribution zipf")->capture_default_str();
  shuffle.add_option("--keys", o.keys, "Distinct keys for --distribution zipf (0: as many as rows)")->capture_default_str();
  shuffle.add_option("--transport", o.transport,
                     "Design: mpi-alltoallv (counts exchanged, then one MPI_Alltoallv: the baseline), mpi-two-sided "
                     "(streaming MPI_Isend into pre-posted receives), mpi-one-sided (puts into per-source receive "
                     "rings, straight into the destination's memory on a node), message-layer (the engine's hybrid "
                     "message layer: batches up to --threshold through its one-sided rings, larger ones two-sided; "
                     "see the Message layer options), ucx-tag (UCX tagged messages, one worker per rank), ucx-am "
                     "(UCX active messages, one worker and endpoints per thread), a comma-separated list of these, or "
                     "all (every design); several designs run interleaved in each repetition")
      ->capture_default_str();
  shuffle.add_option("--buffer-size", o.buffer_size,
                     "Bytes of one batch buffer, its 64-byte header included (a multiple of 64, e.g. 256KiB)")
      ->capture_default_str();
  shuffle.add_option("--buffers", o.buffers,
                     "Credits: buffers a receiver holds per (source rank, thread) stream, i.e. batches in flight")
      ->capture_default_str();
  shuffle.add_option("--threads", o.threads,
                     "Worker threads per rank (add --bind-to none to mpirun); thread t of each rank exchanges with "
                     "thread t of the others")
      ->capture_default_str();
  shuffle.add_option("--repeat", o.repeat, "Exchanges per design; the summary reports the median run")
      ->capture_default_str();
  shuffle.add_option("--seed", o.seed, "Random seed of the rows")->capture_default_str();
  shuffle.add_option("--progress-timeout", o.progress_timeout,
                     "Seconds a rank may give no sign of life (stopped, its node frozen), and five times that without "
                     "progress while the others wait for it, before every rank ends with a message naming it")
      ->capture_default_str();
  shuffle.add_option("--direct-writes", o.direct_writes,
                     "mpi-one-sided: on (ranks of a node write straight into each other's rings) or off (through "
                     "MPI RMA, as between nodes)")
      ->capture_default_str();
  shuffle.add_option("--row-writes", o.row_writes,
                     "How partitioning writes rows into batch buffers: direct (a store per row; the cache combines "
                     "the lines of a few destinations), combining (software write-combining with non-temporal "
                     "stores; rows of 16, 32 or 64 bytes), or auto (direct up to 64 ranks)")
      ->capture_default_str();
  shuffle.add_flag("--verify", o.verify,
                   "Check every exchange: each rank's rows from each source, by count and order-independent "
                   "checksum, against what the sources computed on their own; end of stream once per source, after "
                   "all its rows. Exit 3 on a difference");
  shuffle.add_option("--json", o.json, "Write the results as JSON to FILE, or to standard output with '-'");
  add_message_layer_options(shuffle, o.layer);
}

namespace {

// The designs --transport names: a list, or "all".
std::vector<ShuffleDesign> designs_named(const std::string& text) {
  if (text == "all") return available_shuffle_designs();
  std::vector<ShuffleDesign> designs;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const ShuffleDesign d = value_named(text.substr(at, comma - at), kShuffleDesignNames, "--transport");
    if (std::find(designs.begin(), designs.end(), d) != designs.end()) {
      throw UsageError("--transport names " + to_string(d) + " twice");
    }
    designs.push_back(d);
    at = comma + 1;
  }
  return designs;
}

}  // namespace

ShuffleRequest to_request(const ShuffleOptions& o) {
  ShuffleRequest request;
  request.workload.rows = parse_count(o.tuples, "--tuples");
  request.workload.row_bytes = o.width;
  request.workload.keys = value_named(o.distribution, kKeyDistributionNames, "--distribution");
  request.workload.zipf_theta = o.theta;
  request.workload.key_domain = parse_count(o.keys, "--keys");
  request.workload.seed = o.seed;
  if (o.direct_writes != "on" && o.direct_writes != "off") {
    throw UsageError("--direct-writes must be on or off, not '" + o.direct_writes + "'");
  }
  ShuffleConfig base;
  base.row_bytes = o.width;
  base.buffer_bytes = parse_bytes(o.buffer_size, "--buffer-size");
  base.buffers = o.buffers;
  base.threads = o.threads;
  base.direct_writes = o.direct_writes == "on";
  base.row_writes = value_named(o.row_writes, kRowWritesNames, "--row-writes");
  const std::vector<ShuffleDesign> designs = designs_named(o.transport);
  if (std::find(designs.begin(), designs.end(), ShuffleDesign::message_layer) != designs.end()) {
    MessageLayerOptions layer = o.layer;
    // A calibration made on one rank measured no threshold: the default serves.
    if (layer.threshold.empty() && !layer.calibration.empty() && read_calibration(layer.calibration).message_threshold <= 0) {
      layer.calibration.clear();
    }
    base.layer = resolve(layer);
  }
  for (ShuffleDesign d : designs) {
    ShuffleConfig c = base;
    c.design = d;
    request.designs.push_back(c);
  }
  request.repeat = o.repeat;
  request.verify = o.verify;
  request.calibration = o.layer.calibration;
  request.progress_timeout = o.progress_timeout;
  request.report_file = o.json;
  return request;
}

int run_shuffle_command(const Cluster& cluster, const ShuffleOptions& options) {
  const bool leader = cluster.rank() == 0;
  ShuffleRequest request;
  run_collectively(cluster.world(), [&] { request = to_request(options); });
  std::ostream& text = options.json == "-" ? std::cerr : std::cout;
  ShuffleObserver observer;
  observer.designs_ready = [&](const ShuffleOutcome& outcome) {
    if (leader) print_shuffle_header(text, request, outcome.shape);
  };
  observer.exchange_done = [&](const ShuffleOutcome& outcome) {
    if (leader) print_shuffle_run(text, request, outcome.runs.back());
    // Shown as it happens; a full disk or a closed pipe ends the command here.
    run_collectively(cluster.world(), [&] {
      if (leader) flush_standard_output();
    });
  };
  const ShuffleOutcome outcome = run_shuffle(cluster, request, observer);
  if (leader) print_shuffle_summary(text, request, outcome);
  run_collectively(cluster.world(), [&] {
    if (leader && !options.json.empty()) write_json(options.json, shuffle_report_json(request, outcome));
  });
  if (!outcome.all_verified()) {
    if (leader) std::cerr << "hpcdb: error: a shuffle delivered other rows than its sources sent (see above)\n";
    return 3;
  }
  return 0;
}

}  // namespace hpcdb
