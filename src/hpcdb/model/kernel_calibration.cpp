#include "hpcdb/model/kernel_calibration.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/error.hpp"
#include "hpcdb/core/memory.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/join/key_directory.hpp"
#include "hpcdb/join/radix/network_partitioner.hpp"
#include "hpcdb/join/radix/partition_joiner.hpp"
#include "hpcdb/kernels/sort_formats.hpp"
#include "hpcdb/kernels/merge_join_scan.hpp"
#include "hpcdb/kernels/radix_histogram.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"
#include "hpcdb/kernels/tuple_format.hpp"
#include "hpcdb/model/best_time.hpp"
#include "hpcdb/model/kernel_workload.hpp"
#include "hpcdb/model/shuffle_kernel_rates.hpp"

namespace hpcdb {
namespace {

void expect_found(const char* what, std::uint64_t found, std::uint64_t wanted) {
  if (found != wanted) {
    throw Error(std::string("calibration: ") + what + " found " + std::to_string(found) + " of " + std::to_string(wanted));
  }
}

// Build over the cache-sized partitions the partitioning pass made.
double build_rate(BucketChainTable<CompressedFormat>& table, const std::uint64_t* windows, const PartitionLayout& layout,
                  unsigned repeat) {
  const std::size_t partitions = layout.targets.size();
  return static_cast<double>(layout.start.back()) / best_seconds(repeat, [&] {
    for (std::size_t p = 0; p < partitions; ++p) table.build(windows + layout.start[p], layout.start[p + 1] - layout.start[p]);
  });
}

// Probe of each partition into its own table (every probe finds its own
// tuple); only the probes are timed.
double probe_rate(BucketChainTable<CompressedFormat>& table, CompressedFormat format, const std::uint64_t* windows,
                  const PartitionLayout& layout, unsigned repeat) {
  const std::size_t n = layout.start.back();
  PartitionJoiner<CompressedFormat> joiner(format, {}, ~std::uint64_t{0}, 0, 0);
  double best = 1e300;
  for (unsigned k = 0; k < repeat; ++k) {
    double seconds = 0;
    MatchCollector matches;
    for (std::size_t p = 0; p + 1 < layout.start.size(); ++p) {
      const std::uint64_t* partition = windows + layout.start[p];
      const std::size_t size = layout.start[p + 1] - layout.start[p];
      table.build(partition, size);
      Stopwatch watch;
      joiner.probe(table, partition, size, matches);
      seconds += watch.seconds();
    }
    expect_found("the probe", matches.count, n);
    best = std::min(best, seconds);
  }
  return static_cast<double>(n) / best;
}

// The radix join's kernels: histogram, one partitioning pass into exactly
// sized windows, build and probe.
void measure_radix_kernels(const Tuple* tuples, std::size_t n, unsigned bits, unsigned repeat, Calibration& c) {
  const std::size_t partitions = std::size_t{1} << bits;
  std::vector<std::uint64_t> counts(partitions);
  c.scan = n / best_seconds(repeat, [&] {
    std::fill(counts.begin(), counts.end(), 0);
    radix_histogram(tuples, n, partitions - 1, counts.data());
  });
  const CompressedFormat format{bits, 40};
  AlignedArray<std::uint64_t> windows(n);
  const PartitionLayout layout = lay_out_partitions(counts, windows.data());
  NetworkPartitioner<CompressedFormat> partitioner(partitions, 8192, 2, nullptr);
  NetworkPassStats stats;
  c.partition_bits = bits;
  c.partition = n / best_seconds(repeat, [&] {
    partitioner.run(tuples, n, format, layout.targets, counts.data(), nullptr, stats);
  });
  BucketChainTable<CompressedFormat> table(format, 0);
  c.build = build_rate(table, windows.data(), layout, repeat);
  c.probe = probe_rate(table, format, windows.data(), layout, repeat);
}

// Sorting runs of `run` values. Run k holds keys of one key sub-range,
// [k * span, (k + 1) * span), as the join's runs do; with its default
// sub-ranges a sub-range holds about one run per sender, here two senders.
// So runs take the sorting kernel the join's take (through 32-bit sort keys
// when they fit).
double run_sort_rate(const Tuple* tuples, std::size_t n, OffsetCompressedFormat format, std::size_t run, unsigned repeat) {
  const std::uint64_t span = 2 * static_cast<std::uint64_t>(run);
  std::vector<std::uint64_t> runs(n), sorted(n);
  for (std::size_t i = 0; i < n; ++i) runs[i] = format.encode({i / run * span + tuples[i].key % span, tuples[i].rid});
  RunSortSpace<std::uint64_t> space(run);
  double best = 1e300;
  for (unsigned k = 0; k < repeat; ++k) {
    std::vector<std::uint64_t> work = runs;  // sorting overwrites its input
    best = std::min(best, best_seconds(1, [&] {
      for (std::size_t i = 0; i < n; i += run) {
        format.sort(work.data() + i, std::min(run, n - i), sorted.data() + i, space,
                    KeyField{i / run * span, bit_width_of(span - 1)});
      }
    }));
  }
  return n / best;
}

// One two-way merge of the sorted halves of `values`.
double merge_rate(const std::vector<std::uint64_t>& values, unsigned repeat) {
  const auto half = static_cast<std::ptrdiff_t>(values.size() / 2);
  std::vector<std::uint64_t> a(values.begin(), values.begin() + half);
  std::vector<std::uint64_t> b(values.begin() + half, values.end());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<std::uint64_t> merged(values.size());
  return values.size() / best_seconds(repeat, [&] { merge_two(a.data(), a.size(), b.data(), b.size(), merged.data()); });
}

// Matching as in the join's default workload: unique sorted inner keys, each
// found once in the outer relation, a separate array.
double match_rate(OffsetCompressedFormat format, const std::vector<std::uint64_t>& inner,
                  const std::vector<std::uint64_t>& outer, unsigned repeat) {
  std::uint64_t found = 0;
  const double seconds = best_seconds(repeat, [&] {
    MatchCollector matches;
    merge_join_scan(
        inner.data(), inner.size(), outer.data(), outer.size(), [format](std::uint64_t v) { return format.key(v); },
        [format](std::uint64_t v) { return format.rid(v); }, matches);
    found = matches.count;
  });
  expect_found("the matching scan", found, inner.size());
  return 2.0 * inner.size() / seconds;
}

// The broadcast join's local join: a sorted chunk a sixteenth of R's size
// (every sixteenth outer key), each tuple looked up through R's key
// directory. `r` and `outer` are sorted and hold the same keys.
double lookup_rate(OffsetCompressedFormat format, const std::vector<std::uint64_t>& r,
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
  expect_found("the directory lookups", found, chunk.size());
  return static_cast<double>(chunk.size()) / seconds;
}

// The sort-based joins' kernels on 64-bit values <key, rid> as the
// sort-merge join stores them: rids in as many bits as they need (the
// sorting kernels are faster on values below 2^62, as the join's are).
void measure_sort_kernels(const Tuple* tuples, std::size_t n, std::size_t run, unsigned repeat, Calibration& c) {
  std::uint64_t largest_rid = 0;
  for (std::size_t i = 0; i < n; ++i) largest_rid = std::max(largest_rid, tuples[i].rid);
  const OffsetCompressedFormat format{0, bit_width_of(largest_rid)};
  c.sort_run = run_sort_rate(tuples, n, format, run, repeat);
  std::vector<std::uint64_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = format.encode(tuples[i]);
  c.merge = merge_rate(values, repeat);
  std::sort(values.begin(), values.end());
  std::vector<std::uint64_t> outer(n);
  for (std::size_t i = 0; i < n; ++i) outer[i] = format.encode({format.key(values[i]), largest_rid - format.rid(values[i])});
  c.match = match_rate(format, values, outer, repeat);
  c.lookup = lookup_rate(format, values, outer, repeat);
}

}  // namespace

void measure_kernel_rates(const KernelCalibrationConfig& config, Calibration& c) {
  const std::size_t n = config.tuples;
  const AlignedArray<Tuple> input = shuffled_unique_tuples(n, 7);
  c.run_length = static_cast<double>(config.run_length);
  measure_radix_kernels(input.data(), n, config.partition_bits, config.repeat, c);
  measure_sort_kernels(input.data(), n, config.run_length, config.repeat, c);
  const ShuffleKernelRates shuffle = measure_shuffle_kernels(n, config.repeat);
  c.shuffle_count = shuffle.count;
  c.shuffle_partition = shuffle.partition;
  c.shuffle_consume = shuffle.consume;
}

void take_slowest_rank(MPI_Comm comm, Calibration& c) {
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
  for (double* rate : rates) MPI_Allreduce(MPI_IN_PLACE, rate, 1, MPI_DOUBLE, MPI_MIN, comm);
}

}  // namespace hpcdb
