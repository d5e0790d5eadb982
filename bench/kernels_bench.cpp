// Micro-benchmarks of the radix join's kernels on this machine (one thread):
// histogram, network partitioning into exact runs, and build + probe over
// cache-sized partitions, on the inputs hpcdb calibrate measures them on
// (model/kernel_workload.hpp). Items per second = input tuples per second.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/radix/network_partitioner.hpp"
#include "hpcdb/join/radix/partition_joiner.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/kernels/radix_histogram.hpp"
#include "hpcdb/kernels/key_field_sort.hpp"
#include "hpcdb/kernels/local_radix_partitioner.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"
#include "hpcdb/kernels/tuple_format.hpp"
#include "hpcdb/model/kernel_workload.hpp"

namespace hpcdb {
namespace {

constexpr std::size_t kTuples = 16u << 20;

const AlignedArray<Tuple>& shuffled_input() {
  static const AlignedArray<Tuple> input = shuffled_unique_tuples(kTuples, 1);
  return input;
}

void BM_Histogram(benchmark::State& state) {
  const auto& in = shuffled_input();
  const std::size_t partitions = std::size_t{1} << state.range(0);
  std::vector<std::uint64_t> counts(partitions);
  for (auto _ : state) {
    std::fill(counts.begin(), counts.end(), 0);
    benchmark::DoNotOptimize(radix_histogram(in.data(), in.size(), partitions - 1, counts.data()));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_Histogram)->Arg(10)->Arg(11)->Unit(benchmark::kMillisecond);

// Network and first local digits counted together (2^14-2^16 bins).
void BM_HistogramWide(benchmark::State& state) {
  const auto& in = shuffled_input();
  const std::size_t bins = std::size_t{1} << state.range(0);
  std::vector<std::uint64_t> counts(bins);
  std::vector<std::uint32_t> scratch;
  for (auto _ : state) {
    std::fill(counts.begin(), counts.end(), 0);
    benchmark::DoNotOptimize(radix_histogram_wide(in.data(), in.size(), bins - 1, counts.data(), scratch));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_HistogramWide)->Arg(14)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_NetworkPartition(benchmark::State& state) {
  const auto& in = shuffled_input();
  const unsigned bits = static_cast<unsigned>(state.range(0));
  const std::size_t partitions = std::size_t{1} << bits;
  std::vector<std::uint64_t> counts(partitions, 0);
  radix_histogram(in.data(), in.size(), partitions - 1, counts.data());
  AlignedArray<std::uint64_t> out(in.size());
  const PartitionLayout layout = lay_out_partitions(counts, out.data());
  const CompressedFormat format{bits, 24};
  NetworkPartitioner<CompressedFormat> partitioner(partitions, 8192, 2, nullptr);
  NetworkPassStats stats;
  for (auto _ : state) partitioner.run(in.data(), in.size(), format, layout.targets, counts.data(), nullptr, stats);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_NetworkPartition)->Arg(6)->Arg(8)->Arg(9)->Arg(10)->Arg(11)->Arg(12)->Unit(benchmark::kMillisecond);

void BM_BuildProbe(benchmark::State& state) {
  const auto& in = shuffled_input();
  const unsigned bits = static_cast<unsigned>(state.range(0));
  const unsigned local_bits = static_cast<unsigned>(state.range(1));
  const std::size_t partitions = std::size_t{1} << bits;
  std::vector<std::uint64_t> counts(partitions, 0);
  radix_histogram(in.data(), in.size(), partitions - 1, counts.data());
  AlignedArray<std::uint64_t> out(in.size());
  const PartitionLayout layout = lay_out_partitions(counts, out.data());
  const std::vector<std::uint64_t>& start = layout.start;
  const CompressedFormat format{bits, 24};
  NetworkPartitioner<CompressedFormat> partitioner(partitions, 8192, 2, nullptr);
  NetworkPassStats stats;
  partitioner.run(in.data(), in.size(), format, layout.targets, counts.data(), nullptr, stats);
  std::uint64_t largest = 0;
  for (std::size_t p = 0; p < partitions; ++p) largest = std::max(largest, counts[p]);
  PartitionJoiner<CompressedFormat> joiner(format, split_radix_bits(local_bits, kMaxSinglePassBits), 16384, largest, largest);
  for (auto _ : state) {
    MatchCollector matches;
    for (std::size_t p = 0; p < partitions; ++p) {
      // The same partition serves as build and probe side: every tuple matches itself.
      joiner.join(out.data() + start[p], counts[p], out.data() + start[p], counts[p], matches);
    }
    benchmark::DoNotOptimize(matches.checksum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size() * 2));
}
BENCHMARK(BM_BuildProbe)->Args({12, 0})->Args({11, 0})->Args({10, 0})->Args({9, 0})->Args({10, 1})->Args({9, 2})->Args({8, 3})->Args({11, 2})->Unit(benchmark::kMillisecond);

// The local partitioning pass of one network partition, as the join meets
// it: each partition of `items` compressed tuples comes cold from memory
// (consecutive slices of a 512 MiB array), and is split on `bits` key bits.
// Variant 1: LocalRadixPartitioner, plain stores (what the partition joiner
// uses); 2: LocalRadixPartitioner, write-combining and non-temporal stores. Passes: bits split into passes of
// at most `max_bits` (range 3).
AlignedArray<std::uint64_t>& cold_compressed_input() {
  static AlignedArray<std::uint64_t> input = [] {
    constexpr std::size_t kCold = 64u << 20;
    AlignedArray<std::uint64_t> a(kCold);
    std::mt19937_64 rng(7);
    for (std::size_t i = 0; i < kCold; ++i) a[i] = (rng() >> 24) << 24 | (i & low_mask(24));
    return a;
  }();
  return input;
}

void BM_LocalPass(benchmark::State& state) {
  AlignedArray<std::uint64_t>& in = cold_compressed_input();
  const std::size_t items = static_cast<std::size_t>(state.range(0));
  const unsigned bits = static_cast<unsigned>(state.range(1));
  const int variant = static_cast<int>(state.range(2));
  const unsigned max_bits = static_cast<unsigned>(state.range(3));
  const CompressedFormat format{0, 24};
  const ScatterStores stores = variant == 1 ? ScatterStores::direct : ScatterStores::streaming;
  LocalRadixPartitioner<std::uint64_t> partitioner(split_radix_bits(bits, max_bits), items, stores);
  std::vector<std::uint64_t> starts;
  auto key_of = [format](std::uint64_t v) { return format.residual_key(v); };
  std::size_t done = 0;
  for (auto _ : state) {
    for (std::size_t begin = 0; begin + items <= in.size(); begin += items) {
      benchmark::DoNotOptimize(partitioner.partition(in.data() + begin, items, key_of, starts));
      done += items;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(done));
}
BENCHMARK(BM_LocalPass)
    ->ArgNames({"items", "bits", "variant", "max_bits"})
    ->Args({256 << 10, 3, 1, 11})->Args({256 << 10, 3, 2, 11})
    ->Args({1 << 20, 5, 1, 11})->Args({1 << 20, 5, 2, 11})
    ->Args({8 << 20, 8, 1, 11})->Args({8 << 20, 8, 2, 11})
    ->Args({32 << 20, 14, 2, 14})->Args({32 << 20, 14, 1, 7})->Args({32 << 20, 14, 2, 7})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hpcdb


namespace hpcdb {
namespace {

void BM_SortRuns(benchmark::State& state) {
  const std::size_t run = static_cast<std::size_t>(state.range(0));
  const SortPath path = state.range(1) == 0 ? SortPath::scalar : SortPath::avx2;
  const std::size_t n = 4u << 20;
  std::vector<std::uint64_t> source(n), in(n), out(n), scratch(run);
  std::mt19937_64 rng(3);
  for (auto& v : source) v = rng() >> 8;
  for (auto _ : state) {
    state.PauseTiming();
    in = source;
    state.ResumeTiming();
    for (std::size_t i = 0; i < n; i += run) sort_run(in.data() + i, run, out.data() + i, scratch.data(), path);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_SortRuns)->Args({16384, 0})->Args({16384, 1})->Args({4096, 1})->Unit(benchmark::kMillisecond);

// Runs of compressed tuples (25-bit rids) whose keys span 2^15 values, as in
// one key sub-range of the sort-merge join, sorted by key through 32-bit
// sort keys.
void BM_KeyFieldSortRuns(benchmark::State& state) {
  const std::size_t run = static_cast<std::size_t>(state.range(0));
  const SortPath path = state.range(1) == 0 ? SortPath::scalar : SortPath::avx2;
  const std::size_t n = 4u << 20;
  std::vector<std::uint64_t> in(n), out(n);
  std::vector<std::uint32_t> work(key_field_sort_work_words(run));
  std::mt19937_64 rng(3);
  for (auto& v : in) v = ((rng() & 0x7FFF) << 25) | (rng() & 0x1FFFFFF);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; i += run) sort_by_key_field(in.data() + i, run, 25, 0, 15, out.data() + i, work.data(), path);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_KeyFieldSortRuns)->Args({16384, 0})->Args({16384, 1})->Args({4096, 1})->Unit(benchmark::kMillisecond);

void BM_MergeTwo(benchmark::State& state) {
  const std::size_t n = 4u << 20;
  std::vector<std::uint64_t> a(n), b(n), out(2 * n);
  std::mt19937_64 rng(4);
  for (auto& v : a) v = rng() >> 8;
  for (auto& v : b) v = rng() >> 8;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const SortPath path = state.range(0) == 0 ? SortPath::scalar : SortPath::avx2;
  for (auto _ : state) merge_two(a.data(), n, b.data(), n, out.data(), path);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2 * n));
}
BENCHMARK(BM_MergeTwo)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hpcdb

BENCHMARK_MAIN();
