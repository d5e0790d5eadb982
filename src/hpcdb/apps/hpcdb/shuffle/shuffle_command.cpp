#include "hpcdb/apps/hpcdb/shuffle/shuffle_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/apps/hpcdb/json_output.hpp"
#include "hpcdb/apps/hpcdb/shuffle/shuffle_report.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/standard_output.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/progress_guard.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/shuffle/digest_consumer.hpp"
#include "hpcdb/shuffle/shuffle.hpp"
#include "hpcdb/shuffle/shuffle_reference.hpp"

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

ShufflePlan resolve(const ShuffleOptions& o) {
  ShufflePlan plan;
  plan.workload.rows = parse_count(o.tuples, "--tuples");
  plan.workload.row_bytes = o.width;
  plan.workload.keys = value_named(o.distribution, kKeyDistributionNames, "--distribution");
  plan.workload.zipf_theta = o.theta;
  plan.workload.key_domain = parse_count(o.keys, "--keys");
  plan.workload.seed = o.seed;
  validate(plan.workload);
  if (o.repeat < 1) throw UsageError("--repeat must be at least 1");
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
  std::vector<ShuffleDesign> designs;
  if (o.transport == "all") {
    designs = available_shuffle_designs();
  } else {
    std::size_t at = 0;
    while (at <= o.transport.size()) {
      const std::size_t comma = std::min(o.transport.find(',', at), o.transport.size());
      const ShuffleDesign d = value_named(o.transport.substr(at, comma - at), kShuffleDesignNames, "--transport");
      if (std::find(designs.begin(), designs.end(), d) != designs.end()) {
        throw UsageError("--transport names " + to_string(d) + " twice");
      }
      designs.push_back(d);
      at = comma + 1;
    }
  }
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
    validate(c);
    plan.designs.push_back(c);
  }
  plan.repeat = o.repeat;
  plan.verify = o.verify;
  if (!o.layer.calibration.empty()) {
    const Calibration c = read_calibration(o.layer.calibration);
    if (!c.has_shuffle_rates()) {
      throw UsageError("calibration file '" + o.layer.calibration +
                       "' has no shuffle rates (an older 'hpcdb calibrate' wrote it): calibrate again");
    }
    plan.model_rates = c.shuffle_rates();
    plan.calibration = o.layer.calibration;
  }
  return plan;
}

namespace {

// Refuses, before anything is allocated, a job that cannot fit in this node's memory.
void check_memory(const Cluster& cluster, const ShufflePlan& plan) {
  const RowRange mine = rank_rows(plan.workload.rows, 0, cluster.size());
  const std::uint64_t input = mine.count * plan.workload.row_bytes;
  std::uint64_t per_rank = input;
  std::uint64_t shared = 0;
  for (const ShuffleConfig& c : plan.designs) {
    const std::uint64_t streams = static_cast<std::uint64_t>(cluster.size()) * c.threads;
    if (c.design == ShuffleDesign::mpi_alltoallv) {
      per_rank += input + input * 5 / 4;
    } else {
      per_rank += 2 * streams * c.buffers * c.buffer_bytes;
    }
    if (c.design == ShuffleDesign::mpi_one_sided) shared += streams * c.buffers * c.buffer_bytes;
    if (c.design == ShuffleDesign::message_layer) per_rank += c.layer.window_bytes(cluster.size());
  }
  const std::uint64_t per_node = per_rank * static_cast<std::uint64_t>(cluster.node_size());
  if (const std::optional<std::string> shortfall = memory_shortfall(per_node)) {
    throw UsageError(fmt::format(
        "this shuffle ({} rank{} x {}: rows and buffers) {}; use smaller --tuples, --buffer-size or --buffers, "
        "or spread the job over more nodes",
        cluster.node_size(), cluster.node_size() == 1 ? "" : "s", format_bytes(static_cast<double>(per_rank)),
        *shortfall));
  }
  if (const auto shortfall = shared_memory_shortfall(shared * static_cast<std::uint64_t>(cluster.node_size()))) {
    throw UsageError("the receive rings of mpi-one-sided " + *shortfall + ", or use smaller --buffer-size or --buffers");
  }
}

AlignedArray<std::uint64_t> generate_input(const Cluster& cluster, const RowWorkloadSpec& spec, unsigned threads) {
  const RowRange range = rank_rows(spec.rows, cluster.rank(), cluster.size());
  const std::size_t words = spec.row_bytes / 8;
  AlignedArray<std::uint64_t> rows(std::max<std::uint64_t>(range.count * words, 1), Prefault::no);
  run_on_threads(threads, [&](unsigned t) {
    const std::uint64_t begin = split_point(range.count, threads, t);
    const std::uint64_t end = split_point(range.count, threads, t + 1);
    generate_rows(spec, range.first + begin, end - begin, rows.data() + begin * words);
  });
  return rows;
}

// Every rank's figures at rank 0 (others get an empty vector).
std::vector<ShuffleRankStats> gather_stats(const Cluster& cluster, const ShuffleRankStats& mine) {
  std::vector<double> packed = {mine.seconds,
                                static_cast<double>(mine.rows_in),
                                static_cast<double>(mine.rows_received),
                                static_cast<double>(mine.bytes_sent),
                                static_cast<double>(mine.bytes_sent_off_node),
                                static_cast<double>(mine.bytes_received),
                                static_cast<double>(mine.messages_sent),
                                mine.credit_wait_seconds,
                                mine.drain_seconds};
  for (const auto& [name, seconds] : mine.phases) packed.push_back(seconds);
  const std::size_t n = packed.size();
  std::vector<double> all(cluster.rank() == 0 ? n * static_cast<std::size_t>(cluster.size()) : 0);
  MPI_Gather(packed.data(), static_cast<int>(n), MPI_DOUBLE, all.data(), static_cast<int>(n), MPI_DOUBLE, 0,
             cluster.world());
  std::vector<ShuffleRankStats> result;
  if (cluster.rank() != 0) return result;
  for (int r = 0; r < cluster.size(); ++r) {
    const double* v = all.data() + static_cast<std::size_t>(r) * n;
    ShuffleRankStats s;
    s.seconds = v[0];
    s.rows_in = static_cast<std::uint64_t>(v[1]);
    s.rows_received = static_cast<std::uint64_t>(v[2]);
    s.bytes_sent = static_cast<std::uint64_t>(v[3]);
    s.bytes_sent_off_node = static_cast<std::uint64_t>(v[4]);
    s.bytes_received = static_cast<std::uint64_t>(v[5]);
    s.messages_sent = static_cast<std::uint64_t>(v[6]);
    s.credit_wait_seconds = v[7];
    s.drain_seconds = v[8];
    for (std::size_t p = 0; p < mine.phases.size(); ++p) s.phases.emplace_back(mine.phases[p].first, v[9 + p]);
    result.push_back(std::move(s));
  }
  return result;
}

std::vector<ShuffleResources> gather_resources(const Cluster& cluster, const ShuffleResources& mine) {
  const std::uint64_t packed[2] = {mine.registered_bytes, mine.endpoints};
  std::vector<std::uint64_t> all(cluster.rank() == 0 ? 2 * static_cast<std::size_t>(cluster.size()) : 0);
  MPI_Gather(packed, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, cluster.world());
  std::vector<ShuffleResources> result;
  for (std::size_t r = 0; r + 1 < all.size(); r += 2) result.push_back({all[r], all[r + 1]});
  return result;
}

// The first rank's complaint, at rank 0 (empty when every rank's check passed).
std::string gather_failure(const Cluster& cluster, const std::string& mine) {
  const int failed_rank = allreduce(mine.empty() ? cluster.size() : cluster.rank(), MPI_MIN, cluster.world());
  if (failed_rank == cluster.size()) return {};
  int length = static_cast<int>(mine.size());
  MPI_Bcast(&length, 1, MPI_INT, failed_rank, cluster.world());
  std::string text(static_cast<std::size_t>(length), ' ');
  if (cluster.rank() == failed_rank) text = mine;
  MPI_Bcast(text.data(), length, MPI_CHAR, failed_rank, cluster.world());
  return text;
}

}  // namespace

int run_shuffle_command(const Cluster& cluster, const ShuffleOptions& options) {
  const bool leader = cluster.rank() == 0;
  ShufflePlan plan;
  const ShuffleJobShape shape{cluster.size(), cluster.node_count()};
  run_collectively(cluster.world(), [&] {
    plan = resolve(options);
    if (!(options.progress_timeout > 0 && options.progress_timeout <= 1e6)) {
      throw UsageError("--progress-timeout must be more than 0 and at most 1000000 s");
    }
    for (const ShuffleConfig& c : plan.designs) predict(plan, c, shape, 0);  // a calibration that cannot serve says so now
    check_memory(cluster, plan);
    if (leader) check_output_path(options.json, "JSON file");
  });
  std::ostream& text = options.json == "-" ? std::cerr : std::cout;
  // From here on no rank waits forever for a peer that stopped or hangs.
  ProgressGuardConfig watched;
  watched.timeout_seconds = options.progress_timeout;
  watched.operation = "shuffle";
  const ProgressGuard guard(cluster, watched);

  const AlignedArray<std::uint64_t> rows = generate_input(cluster, plan.workload, plan.designs.front().threads);
  const RowSpan input{reinterpret_cast<const std::byte*>(rows.data()),
                      rank_rows(plan.workload.rows, cluster.rank(), cluster.size()).count};
  std::vector<RowDigest> expected;
  if (plan.verify) expected = expected_digests(cluster, input, plan.workload.row_bytes);

  std::vector<std::unique_ptr<Shuffle>> shuffles;
  std::vector<ShuffleDesignRecord> designs;
  for (const ShuffleConfig& config : plan.designs) {
    Stopwatch setup;
    run_collectively(cluster.world(), [&] { shuffles.push_back(make_shuffle(cluster, config, plan.workload.rows)); });
    ShuffleDesignRecord record{config, allreduce(setup.seconds(), MPI_MAX, cluster.world()),
                               gather_resources(cluster, shuffles.back()->resources())};
    designs.push_back(std::move(record));
  }
  if (leader) print_shuffle_header(text, plan, shape);

  DigestConsumer consumer(cluster.size(), plan.designs.front().threads, plan.workload.row_bytes);
  std::vector<ShuffleRunRecord> runs;
  bool all_verified = true;
  for (unsigned k = 1; k <= plan.repeat; ++k) {
    for (const std::unique_ptr<Shuffle>& shuffle : shuffles) {
      consumer.reset();
      report_phase_start(to_string(shuffle->design()));
      const ShuffleRunStats stats = shuffle->run(input, consumer);
      ShuffleRunRecord record{shuffle->design(), k, stats.seconds, gather_stats(cluster, stats.rank), plan.verify, {}};
      if (plan.verify) {
        record.failure = gather_failure(cluster, compare_with_expected(consumer, expected, cluster.rank()));
        all_verified = all_verified && record.failure.empty();
      }
      if (leader) print_shuffle_run(text, plan, record);
      // Shown as it happens; a full disk or a closed pipe ends the command here.
      run_collectively(cluster.world(), [&] {
        if (leader) flush_standard_output();
      });
      runs.push_back(std::move(record));
    }
  }
  if (leader) print_shuffle_summary(text, plan, shape, designs, runs);
  run_collectively(cluster.world(), [&] {
    if (leader && !options.json.empty()) write_json(options.json, shuffle_report_json(plan, shape, designs, runs));
  });
  if (!all_verified) {
    if (leader) std::cerr << "hpcdb: error: a shuffle delivered other rows than its sources sent (see above)\n";
    return 3;
  }
  return 0;
}

}  // namespace hpcdb
