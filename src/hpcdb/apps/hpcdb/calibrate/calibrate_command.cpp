#include "hpcdb/apps/hpcdb/calibrate/calibrate_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "hpcdb/model/calibration.hpp"
#include "hpcdb/apps/hpcdb/netbench/layer_benchmarks.hpp"
#include "hpcdb/apps/hpcdb/netbench/netbench_results.hpp"
#include "hpcdb/apps/hpcdb/shuffle/shuffle_kernel_rates.hpp"
#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/output_file.hpp"
#include "hpcdb/core/output_path.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/core/units.hpp"
#include "hpcdb/join/radix/network_partitioner.hpp"
#include "hpcdb/join/key_directory.hpp"
#include "hpcdb/join/radix/partition_joiner.hpp"
#include "hpcdb/join/receive_windows.hpp"
#include "hpcdb/kernels/sort_formats.hpp"
#include "hpcdb/kernels/merge_join_scan.hpp"
#include "hpcdb/kernels/radix_histogram.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"
#include "hpcdb/kernels/tuple_format.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/net/messaging/message_header.hpp"
#include "hpcdb/net/collectives.hpp"
#include "hpcdb/net/node_shared_arena.hpp"
#include "hpcdb/net/one_sided_writer.hpp"
#include "hpcdb/net/rma_window.hpp"
#include "hpcdb/net/shared_kernel.hpp"

namespace hpcdb {
namespace {

// Best (shortest) of `repeat` timings of body().
template <class Body>
double best_seconds(unsigned repeat, Body&& body) {
  double best = 1e300;
  for (unsigned k = 0; k < repeat; ++k) {
    Stopwatch watch;
    body();
    best = std::min(best, watch.seconds());
  }
  return best;
}

struct KernelInput {
  AlignedArray<Tuple> tuples;  // unique shuffled keys, rid = position
};

KernelInput make_input(std::size_t n) {
  KernelInput in{AlignedArray<Tuple>(n)};
  std::vector<std::uint64_t> keys(n);
  std::iota(keys.begin(), keys.end(), 0);
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(7));
  for (std::size_t i = 0; i < n; ++i) in.tuples[i] = {keys[i], i};
  return in;
}

// The broadcast join's local join: a sorted chunk a sixteenth of R's size
// (every sixteenth outer key), each tuple looked up through R's key
// directory. `r` and `outer` are sorted and hold the same keys.
double measure_directory_lookups(const OffsetCompressedFormat& format, const std::vector<std::uint64_t>& r,
                                 const std::vector<std::uint64_t>& outer, unsigned repeat) {
  constexpr std::size_t kSparseness = 16;
  std::vector<std::uint64_t> chunk;
  for (std::size_t i = 0; i < outer.size(); i += kSparseness) chunk.push_back(outer[i]);
  const KeyDirectory<OffsetCompressedFormat> directory(format, r.data(), r.size());
  std::uint64_t found = 0;
  const double seconds = best_seconds(repeat, [&] {
    MatchCollector matches;
    directory.join(chunk.data(), chunk.size(), matches);
    found = matches.count;
  });
  if (found != chunk.size()) {
    throw Error("calibration: the directory lookups found " + std::to_string(found) + " of " + std::to_string(chunk.size()));
  }
  return static_cast<double>(chunk.size()) / seconds;
}

void measure_kernels(const CalibrateOptions& o, std::size_t n, Calibration& c) {
  const KernelInput input = make_input(n);
  const Tuple* tuples = input.tuples.data();
  const unsigned bits = o.partition_bits;
  const std::size_t partitions = std::size_t{1} << bits;
  std::vector<std::uint64_t> counts(partitions);

  c.scan = n / best_seconds(o.repeat, [&] {
    std::fill(counts.begin(), counts.end(), 0);
    radix_histogram(tuples, n, partitions - 1, counts.data());
  });

  const CompressedFormat format{bits, 40};
  AlignedArray<std::uint64_t> windows(n);
  std::vector<PartitionTarget<std::uint64_t>> targets(partitions);
  std::vector<std::uint64_t> start(partitions + 1, 0);
  for (std::size_t p = 0; p < partitions; ++p) {
    targets[p].direct = windows.data() + start[p];
    start[p + 1] = start[p] + counts[p];
  }
  NetworkPartitioner<CompressedFormat> partitioner(partitions, 8192, 2, nullptr);
  NetworkPassStats stats;
  c.partition_bits = bits;
  c.partition = n / best_seconds(o.repeat, [&] { partitioner.run(tuples, n, format, targets, counts.data(), nullptr, stats); });

  // Build and probe over the cache-sized partitions just made (every probe finds its own tuple).
  BucketChainTable<CompressedFormat> table(format, 0);
  c.build = n / best_seconds(o.repeat, [&] {
    for (std::size_t p = 0; p < partitions; ++p) table.build(windows.data() + start[p], counts[p]);
  });
  PartitionJoiner<CompressedFormat> joiner(format, {}, ~std::uint64_t{0}, 0, 0);
  double probe_seconds = 1e300;
  for (unsigned k = 0; k < o.repeat; ++k) {
    double seconds = 0;
    MatchCollector matches;
    for (std::size_t p = 0; p < partitions; ++p) {
      table.build(windows.data() + start[p], counts[p]);
      Stopwatch watch;
      joiner.probe(table, windows.data() + start[p], counts[p], matches);
      seconds += watch.seconds();
    }
    if (matches.count != n) throw Error("calibration: the probe found " + std::to_string(matches.count) + " of " + std::to_string(n));
    probe_seconds = std::min(probe_seconds, seconds);
  }
  c.probe = n / probe_seconds;

  // Sorting runs, merging, matching, on 64-bit values <key, rid> as the
  // sort-merge join stores them: rids in as many bits as they need (the
  // sorting kernels are faster on values below 2^62, as the join's are).
  std::uint64_t largest_rid = 0;
  for (std::size_t i = 0; i < n; ++i) largest_rid = std::max(largest_rid, tuples[i].rid);
  const OffsetCompressedFormat sort_format{0, bit_width_of(largest_rid)};
  const auto run = static_cast<std::size_t>(c.run_length);
  // Run k holds keys of one key sub-range, [k * span, (k + 1) * span), as
  // the join's runs do; with its default sub-ranges a sub-range holds about
  // one run per sender, here two senders. So runs take the sorting kernel
  // the join's take (through 32-bit sort keys when they fit).
  const std::uint64_t span = 2 * static_cast<std::uint64_t>(run);
  std::vector<std::uint64_t> runs(n), sorted(n);
  for (std::size_t i = 0; i < n; ++i) runs[i] = sort_format.encode({i / run * span + tuples[i].key % span, tuples[i].rid});
  RunSortSpace<std::uint64_t> space(run);
  double sort_seconds = 1e300;
  for (unsigned k = 0; k < o.repeat; ++k) {
    std::vector<std::uint64_t> work = runs;  // sorting overwrites its input
    sort_seconds = std::min(sort_seconds, best_seconds(1, [&] {
      for (std::size_t i = 0; i < n; i += run) {
        sort_format.sort(work.data() + i, std::min(run, n - i), sorted.data() + i, space,
                         KeyField{i / run * span, bit_width_of(span - 1)});
      }
    }));
  }
  c.sort_run = n / sort_seconds;
  std::vector<std::uint64_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = sort_format.encode(tuples[i]);
  std::vector<std::uint64_t> a(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2));
  std::vector<std::uint64_t> b(values.begin() + static_cast<std::ptrdiff_t>(n / 2), values.end());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<std::uint64_t> merged(n);
  c.merge = n / best_seconds(o.repeat, [&] { merge_two(a.data(), a.size(), b.data(), b.size(), merged.data()); });
  // Matching as in the join's default workload: unique inner keys, each
  // found once in the outer relation, a separate array.
  std::sort(values.begin(), values.end());
  std::vector<std::uint64_t> outer(n);
  for (std::size_t i = 0; i < n; ++i) {
    outer[i] = sort_format.encode({sort_format.key(values[i]), largest_rid - sort_format.rid(values[i])});
  }
  std::uint64_t found = 0;
  c.match = 2.0 * n / best_seconds(o.repeat, [&] {
    MatchCollector matches;
    merge_join_scan(
        values.data(), n, outer.data(), n, [sort_format](std::uint64_t v) { return sort_format.key(v); },
        [sort_format](std::uint64_t v) { return sort_format.rid(v); }, matches);
    found = matches.count;
  });
  if (found != n) throw Error("calibration: the matching scan found " + std::to_string(found) + " of " + std::to_string(n));
  c.lookup = measure_directory_lookups(sort_format, values, outer, o.repeat);
  const ShuffleKernelRates shuffle = measure_shuffle_kernels(n, o.repeat);
  c.shuffle_count = shuffle.count;
  c.shuffle_partition = shuffle.partition;
  c.shuffle_consume = shuffle.consume;
}

// Rank 0 writes to rank 1: 64 KiB MPI_Rput bandwidth and 8-byte put latency;
// through shared memory too when both share a node.
void measure_network(const Cluster& cluster, unsigned repeat, Calibration& c) {
  if (cluster.size() < 2) return;
  const std::size_t bytes = 64u << 20, chunk = 64u << 10;
  NodeSharedArena arena(cluster, bytes);
  AlignedArray<std::byte> source(bytes);
  {
    RmaWindow window(arena.segment(cluster.node_rank()), bytes, cluster.world());
    OneSidedWriter writer(window.handle());
    if (cluster.rank() == 0) {
      c.put_bandwidth = bytes / best_seconds(repeat, [&] {
        MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        for (std::size_t off = 0, k = 0; off < bytes; off += chunk, ++k) {
          writer.wait(requests[k % 2]);
          requests[k % 2] = writer.put(source.data() + off, chunk, 1, off);
        }
        writer.wait(requests[0]);
        writer.wait(requests[1]);
        MPI_Win_flush(1, window.handle());
      });
      c.put_latency = best_seconds(repeat * 100, [&] {
        MPI_Put(source.data(), 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, window.handle());
        MPI_Win_flush(1, window.handle());
      });
    }
  }
  const int peer_node_rank = cluster.node_rank_of(1);
  if (cluster.rank() == 0 && peer_node_rank >= 0) {
    std::byte* peer = arena.segment(peer_node_rank);
    c.shared_memory_bandwidth = bytes / best_seconds(repeat, [&] { std::memcpy(peer, source.data(), bytes); });
  }
  MPI_Barrier(cluster.world());
  double values[3] = {c.put_bandwidth, c.put_latency, c.shared_memory_bandwidth};
  MPI_Bcast(values, 3, MPI_DOUBLE, 0, cluster.world());
  c.put_bandwidth = values[0];
  c.put_latency = values[1];
  c.shared_memory_bandwidth = values[2];
}

// Every rank puts 64 KiB chunks to every rank on other nodes at once (the
// join's all-to-all pattern); the bandwidth of a machine is the sum of its
// ranks' rates, and the slowest machine counts.
double concurrent_put_bandwidth(const Cluster& cluster, unsigned repeat) {
  const std::size_t chunk = 64u << 10;
  const auto ranks = static_cast<std::size_t>(cluster.size());
  const std::size_t slice = std::max<std::size_t>(chunk, (64u << 20) / ranks / chunk * chunk);
  NodeSharedArena arena(cluster, slice * ranks);
  AlignedArray<std::byte> source(slice);
  std::vector<int> targets;
  for (int r = 1; r < cluster.size(); ++r) {
    const int t = (cluster.rank() + r) % cluster.size();
    if (cluster.node_rank_of(t) < 0) targets.push_back(t);
  }
  RmaWindow window(arena.segment(cluster.node_rank()), slice * ranks, cluster.world());
  OneSidedWriter writer(window.handle());
  double best = 0;
  for (unsigned k = 0; k < repeat; ++k) {
    MPI_Barrier(cluster.world());
    Stopwatch watch;
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    std::size_t sent = 0;
    for (std::size_t off = 0; off < slice; off += chunk) {
      for (int t : targets) {
        writer.wait(requests[sent % 2]);
        requests[sent % 2] = writer.put(source.data() + off, chunk, t, static_cast<std::size_t>(cluster.rank()) * slice + off);
        ++sent;
      }
    }
    writer.wait(requests[0]);
    writer.wait(requests[1]);
    for (int t : targets) MPI_Win_flush(t, window.handle());
    double rate = static_cast<double>(sent * chunk) / watch.seconds();
    double machine = 0;
    MPI_Allreduce(&rate, &machine, 1, MPI_DOUBLE, MPI_SUM, cluster.node());
    MPI_Allreduce(MPI_IN_PLACE, &machine, 1, MPI_DOUBLE, MPI_MIN, cluster.world());
    best = std::max(best, machine);
  }
  return best;
}

// The medians below take at least three measurements, whatever --repeat says
// (one or two give no median worth the name); the summary says how many.
unsigned median_runs(unsigned repeat) { return std::max(repeat, 3u); }

// Opening and closing the joins' receive windows on this layout (a collective
// MPI window when ranks on other nodes write into it): the median of
// median_runs(repeat), the slowest rank.
double window_setup_seconds(const Cluster& cluster, unsigned repeat) {
  const std::size_t bytes = 8u << 20;
  ReceiveWindows windows(cluster, bytes, WindowWrites::stores_and_puts);
  std::vector<double> times;
  for (unsigned k = 0; k < median_runs(repeat); ++k) {
    MPI_Barrier(cluster.world());
    Stopwatch watch;
    windows.open(bytes);
    windows.close();
    times.push_back(allreduce(watch.seconds(), MPI_MAX, cluster.world()));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The message layer's hybrid threshold: rank 0 -> 1 bandwidth of the ring
// alone and of the two-sided path alone, interleaved, over sizes from 256
// bytes to 256 KiB (medians of `repeat`). The threshold is the last size
// after which the two-sided path is faster at every larger size. The layers
// run without network threads (the calibration's MPI is not started for
// concurrent threads), which times the two paths themselves.
struct ThresholdSweep {
  std::vector<std::size_t> sizes;
  std::vector<double> ring, two_sided;  // bytes/s, medians
  std::size_t threshold = 0;
};

ThresholdSweep measure_message_threshold(const Cluster& cluster, unsigned repeat) {
  ThresholdSweep sweep;
  MessageLayerConfig ring;
  ring.threads = 0;
  ring.threshold = ring.ring_bytes - sizeof(MessageHeader);
  MessageLayerConfig two_sided = ring;
  two_sided.threshold = 0;
  MessageLayer ring_layer(cluster, ring);
  MessageLayer two_sided_layer(cluster, two_sided);
  for (std::size_t s = 256; s <= (256u << 10); s *= 2) sweep.sizes.push_back(s);
  std::vector<std::vector<double>> ring_rates(sweep.sizes.size()), two_sided_rates(sweep.sizes.size());
  for (unsigned k = 0; k < median_runs(repeat); ++k) {
    for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
      const WindowPlan plan = window_plan(sweep.sizes[i], 64, 50, 16u << 20);
      ring_rates[i].push_back(layer_bandwidth(ring_layer, plan).bytes_per_second());
      two_sided_rates[i].push_back(layer_bandwidth(two_sided_layer, plan).bytes_per_second());
    }
  }
  for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
    sweep.ring.push_back(median(ring_rates[i]));
    sweep.two_sided.push_back(median(two_sided_rates[i]));
  }
  sweep.threshold = sweep.sizes.back();
  for (std::size_t i = sweep.sizes.size(); i-- > 0 && sweep.two_sided[i] > sweep.ring[i];) {
    sweep.threshold = i == 0 ? sweep.sizes[0] / 2 : sweep.sizes[i - 1];
  }
  double threshold = static_cast<double>(sweep.threshold);
  MPI_Bcast(&threshold, 1, MPI_DOUBLE, 0, cluster.world());
  sweep.threshold = static_cast<std::size_t>(threshold);
  return sweep;
}

// Each rate becomes the slowest rank's (every rank measured at once): every
// phase of a join ends when its slowest rank does.
void take_slowest_rank(const Cluster& cluster, Calibration& c) {
  double* rates[] = {&c.scan,
                     &c.partition,
                     &c.build,
                     &c.probe,
                     &c.sort_run,
                     &c.merge,
                     &c.match,
                     &c.lookup,
                     &c.shuffle_count.rows_per_second_16,
                     &c.shuffle_count.rows_per_second_64,
                     &c.shuffle_partition.rows_per_second_16,
                     &c.shuffle_partition.rows_per_second_64,
                     &c.shuffle_consume.rows_per_second_16,
                     &c.shuffle_consume.rows_per_second_64};
  for (double* rate : rates) MPI_Allreduce(MPI_IN_PLACE, rate, 1, MPI_DOUBLE, MPI_MIN, cluster.world());
}

}  // namespace

void add_calibrate_options(CLI::App& calibrate, CalibrateOptions& o) {
  calibrate.add_option("--output", o.output, "Calibration file to write (JSON; '-' for standard output, the summary then goes to standard error)")->capture_default_str();
  calibrate.add_option("--tuples", o.tuples, "Tuples per kernel measurement")->capture_default_str();
  calibrate.add_option("--partition-bits", o.partition_bits, "Fan-out (bits) of the measured partitioning pass")
      ->capture_default_str();
  calibrate.add_option("--run-length", o.run_length, "Run length of the measured run sort")->capture_default_str();
  calibrate.add_option("--repeat", o.repeat,
                       "Measurements per rate (the best counts); the window set-up and the message layer's threshold "
                       "take the median of at least 3")
      ->capture_default_str();
  calibrate.add_flag("--concurrent", o.concurrent,
                     "Measure under load, on the job's own layout: every rank runs the kernels at the same time "
                     "(the slowest rank's rate), and every rank puts to all ranks on other nodes at once (bandwidth per machine)");
}

int run_calibrate_command(const Cluster& cluster, const CalibrateOptions& o) {
  std::size_t n = 0;
  Calibration c;
  run_collectively(cluster.world(), [&] {
    n = parse_count(o.tuples, "--tuples");
    if (n < 4096 || n > (1ULL << 31)) throw UsageError("--tuples must be between 4096 and 2^31");
    if (o.partition_bits < 1 || o.partition_bits > 16) throw UsageError("--partition-bits must be between 1 and 16");
    c.run_length = static_cast<double>(parse_count(o.run_length, "--run-length"));
    if (c.run_length < 16) throw UsageError("--run-length must be at least 16");
    if (o.repeat < 1) throw UsageError("--repeat must be at least 1");
    // The kernels' inputs, scratch and outputs: about six arrays of --tuples
    // tuples (measured: 376 MiB for 4Mi tuples), on every rank of the node with --concurrent.
    const std::uint64_t per_rank = 6 * static_cast<std::uint64_t>(n) * sizeof(Tuple);
    const std::uint64_t per_node = per_rank * static_cast<std::uint64_t>(o.concurrent ? cluster.node_size() : 1);
    if (const std::optional<std::string> shortfall = memory_shortfall(per_node)) {
      throw UsageError("measuring the kernels on " + o.tuples + " tuples " + *shortfall + "; use fewer --tuples");
    }
    if (cluster.rank() == 0) check_output_path(o.output, "calibration file");
  });
  if (o.concurrent) {
    MPI_Barrier(cluster.world());
    measure_kernels(o, n, c);
    take_slowest_rank(cluster, c);
  } else if (cluster.rank() == 0) {
    measure_kernels(o, n, c);
  }
  measure_network(cluster, o.repeat, c);
  if (o.concurrent && cluster.node_count() > 1) {
    c.put_bandwidth = concurrent_put_bandwidth(cluster, o.repeat);
  }
  c.concurrent = o.concurrent;
  c.window_setup = window_setup_seconds(cluster, o.repeat);
  c.network_shares_cores = cluster.node_count() > 1 && nodes_share_a_kernel(cluster);
  ThresholdSweep sweep;
  if (cluster.size() >= 2) {
    sweep = measure_message_threshold(cluster, o.repeat);
    c.message_threshold = static_cast<double>(sweep.threshold);
  }
  run_collectively(cluster.world(), [&] {
    if (cluster.rank() == 0) write_output_file(o.output, "calibration file", to_json(c).dump(2) + "\n");
  });
  if (cluster.rank() != 0) return 0;
  // With the calibration on standard output, the summary goes to standard error.
  std::FILE* text = o.output == "-" ? stderr : stdout;
  fmt::print(text, "hpcdb calibrate: per-thread rates on this machine ({} tuples, best of {}{})\n", n, o.repeat,
             o.concurrent ? ", all ranks at once: the slowest rank" : "");
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
  if (c.put_bandwidth > 0 && o.concurrent && cluster.node_count() > 1) {
    fmt::print(text, "  all ranks -> other nodes, per machine {:>7.2f} GB/s\n", c.put_bandwidth / 1e9);
  } else if (c.put_bandwidth > 0) {
    fmt::print(text, "  rank 0 -> 1, 64 KiB MPI_Rput      {:>9.2f} GB/s\n", c.put_bandwidth / 1e9);
    fmt::print(text, "  rank 0 -> 1, 8-byte put + flush   {:>9.2f} us\n", c.put_latency * 1e6);
  }
  if (c.network_shares_cores) fmt::print(text, "  (the nodes share one kernel: the network's work runs on the join's cores)\n");
  fmt::print(text, "  receive windows, open + close      {:>9.2f} ms (median of {})\n", c.window_setup * 1e3,
             median_runs(o.repeat));
  if (c.shared_memory_bandwidth > 0) {
    fmt::print(text, "  rank 0 -> 1, shared-memory copy   {:>9.2f} GB/s\n", c.shared_memory_bandwidth / 1e9);
  }
  if (c.message_threshold > 0) {
    fmt::print(text, "  message layer, rank 0 -> 1, MB/s:  {:>8} {:>10} {:>10}\n", "bytes", "ring", "two-sided");
    for (std::size_t i = 0; i < sweep.sizes.size(); ++i) {
      fmt::print(text, "  {:>41} {:>10.1f} {:>10.1f}\n", sweep.sizes[i], sweep.ring[i] / 1e6, sweep.two_sided[i] / 1e6);
    }
    fmt::print(text,
               "  message layer hybrid threshold    {:>9.0f} bytes (the ring up to it, two-sided above; medians of {})\n",
               c.message_threshold, median_runs(o.repeat));
  }
  fmt::print(text, "written to {}\n", o.output == "-" ? "standard output" : o.output);
  return 0;
}

}  // namespace hpcdb
