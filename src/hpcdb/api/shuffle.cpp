#include "hpcdb/api/shuffle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/progress_observer.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/model/calibration.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/gather.hpp"
#include "hpcdb/net/progress_guard.hpp"
#include "hpcdb/shuffle/digest_consumer.hpp"
#include "hpcdb/shuffle/shuffle_reference.hpp"

namespace hpcdb {

bool ShuffleOutcome::all_verified() const {
  return std::all_of(runs.begin(), runs.end(), [](const ShuffleRunRecord& r) { return r.failure.empty(); });
}

namespace {

std::optional<ShuffleRates> model_rates_of(const ShuffleRequest& request) {
  if (request.calibration.empty()) return std::nullopt;
  const Calibration c = read_calibration(request.calibration);
  if (!c.has_shuffle_rates()) {
    throw UsageError("calibration file '" + request.calibration +
                     "' has no shuffle rates (an older 'hpcdb calibrate' wrote it): calibrate again");
  }
  return c.shuffle_rates();
}

// Refuses, before anything is allocated, a job that cannot fit in this node's memory.
void check_memory(const Cluster& cluster, const ShuffleRequest& request) {
  const RowRange mine = rank_rows(request.workload.rows, 0, cluster.size());
  const std::uint64_t input = mine.count * request.workload.row_bytes;
  std::uint64_t per_rank = input;
  std::uint64_t shared = 0;
  for (const ShuffleConfig& c : request.designs) {
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
  const std::vector<double> all = gather_values(packed, 0, cluster.world());
  std::vector<ShuffleRankStats> result;
  for (std::size_t at = 0; at + n <= all.size(); at += n) {
    const double* v = all.data() + at;
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
  const std::vector<std::uint64_t> all = gather_values<std::uint64_t>({mine.registered_bytes, mine.endpoints}, 0,
                                                                      cluster.world());
  std::vector<ShuffleResources> result;
  for (std::size_t r = 0; r + 1 < all.size(); r += 2) result.push_back({all[r], all[r + 1]});
  return result;
}

// Collective: every design set up once, with its set-up time and resources.
std::vector<std::unique_ptr<Shuffle>> set_up(const Cluster& cluster, const ShuffleRequest& request,
                                             ShuffleOutcome& outcome) {
  std::vector<std::unique_ptr<Shuffle>> shuffles;
  for (const ShuffleConfig& config : request.designs) {
    Stopwatch setup;
    run_collectively(cluster.world(), [&] { shuffles.push_back(make_shuffle(cluster, config, request.workload.rows)); });
    outcome.designs.push_back({config, allreduce(setup.seconds(), MPI_MAX, cluster.world()),
                               gather_resources(cluster, shuffles.back()->resources())});
  }
  return shuffles;
}

}  // namespace

void validate(const ShuffleRequest& request) {
  validate(request.workload);
  if (request.designs.empty()) throw UsageError("no shuffle design to run");
  for (const ShuffleConfig& c : request.designs) validate(c);
  if (request.repeat < 1) throw UsageError("--repeat must be at least 1");
  if (!(request.progress_timeout > 0 && request.progress_timeout <= 1e6)) {
    throw UsageError("--progress-timeout must be more than 0 and at most 1000000 s");
  }
}

ShuffleOutcome run_shuffle(const Cluster& cluster, const ShuffleRequest& request, const ShuffleObserver& observer) {
  ShuffleOutcome outcome;
  outcome.shape = {cluster.size(), cluster.node_count()};
  run_collectively(cluster.world(), [&] {
    validate(request);
    outcome.model_rates = model_rates_of(request);
    // A calibration that cannot serve a design says so now.
    for (const ShuffleConfig& c : request.designs) predict(outcome.model_rates, request.workload, c, outcome.shape, 0);
    check_memory(cluster, request);
    if (cluster.rank() == 0) check_output_path(request.report_file, "JSON file");
  });
  // From here on no rank waits forever for a peer that stopped or hangs.
  ProgressGuardConfig watched;
  watched.timeout_seconds = request.progress_timeout;
  watched.operation = "shuffle";
  const ProgressGuard guard(cluster, watched);

  const unsigned threads = request.designs.front().threads;
  const AlignedArray<std::uint64_t> rows = generate_input(cluster, request.workload, threads);
  const RowSpan input{reinterpret_cast<const std::byte*>(rows.data()),
                      rank_rows(request.workload.rows, cluster.rank(), cluster.size()).count};
  std::vector<RowDigest> expected;
  if (request.verify) expected = expected_digests(cluster, input, request.workload.row_bytes);
  const std::vector<std::unique_ptr<Shuffle>> shuffles = set_up(cluster, request, outcome);
  if (observer.designs_ready) observer.designs_ready(outcome);

  DigestConsumer consumer(cluster.size(), threads, request.workload.row_bytes);
  for (unsigned k = 1; k <= request.repeat; ++k) {
    for (const std::unique_ptr<Shuffle>& shuffle : shuffles) {
      consumer.reset();
      report_phase_start(to_string(shuffle->design()));
      const ShuffleRunStats stats = shuffle->run(input, consumer);
      ShuffleRunRecord record{shuffle->design(), k, stats.seconds, gather_stats(cluster, stats.rank), request.verify, {}};
      if (request.verify) {
        record.failure = first_complaint(cluster.world(), compare_with_expected(consumer, expected, cluster.rank()));
      }
      outcome.runs.push_back(std::move(record));
      if (observer.exchange_done) observer.exchange_done(outcome);
    }
  }
  return outcome;
}

}  // namespace hpcdb
