#pragma once
// Joins one network partition on one worker thread: the plan's local radix
// passes (on the key bits after the network bits, each of bounded fan-out)
// into thread-private scratch, pre-faulted for the largest partition, then
// build and probe per final partition.
// A final build partition larger than the cache budget is split into several
// tables, each probed by the whole probe partition.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hpcdb/core/bits.hpp"
#include "hpcdb/core/stopwatch.hpp"
#include "hpcdb/kernels/hash_table.hpp"
#include "hpcdb/kernels/local_radix_partitioner.hpp"
#include "hpcdb/kernels/match_collector.hpp"

namespace hpcdb {

// Final partitions of one network partition after the local pass:
// partition i of R is r[r_start[i], r_start[i+1]), likewise for S.
template <class Stored>
struct LocalPartitions {
  const Stored* r = nullptr;
  const Stored* s = nullptr;
  std::vector<std::uint64_t> r_start;
  std::vector<std::uint64_t> s_start;
  std::size_t count() const { return r_start.size() - 1; }
};

// The first local pass's digit counts of a partition's R and S, counted in
// the histogram phase (nullptr: the pass counts them itself).
struct FirstDigitCounts {
  const std::uint64_t* inner = nullptr;
  const std::uint64_t* outer = nullptr;
};

template <class Format>
class PartitionJoiner {
 public:
  using Stored = typename Format::Stored;
  static constexpr unsigned kMaxBuildSplits = 8;

  // `local_passes`: bits per local pass (none: no local partitioning);
  // scratch for partitions of up to `largest_r` and `largest_s` tuples is
  // allocated and pre-faulted now.
  PartitionJoiner(Format format, const std::vector<unsigned>& local_passes, std::uint64_t build_budget,
                  std::size_t largest_r, std::size_t largest_s)
      : format_(format),
        r_parts_(local_passes, local_passes.empty() ? 0 : largest_r, ScatterStores::direct),
        s_parts_(local_passes, local_passes.empty() ? 0 : largest_s, ScatterStores::direct),
        local_bits_(r_parts_.total_bits()),
        build_budget_(build_budget),
        table_(format, local_bits_) {}

  // Runs the local passes over r and s into this joiner's scratch.
  // `counted`: their first pass's digit counts, when known (else nulls).
  LocalPartitions<Stored> partition(const Stored* r, std::size_t nr, const Stored* s, std::size_t ns,
                                    FirstDigitCounts counted = {}) {
    const Format format = format_;
    auto key_of = [format](const Stored& item) { return format.residual_key(item); };
    LocalPartitions<Stored> parts;
    parts.r = r_parts_.partition(r, nr, key_of, parts.r_start, counted.inner);
    parts.s = s_parts_.partition(s, ns, key_of, parts.s_start, counted.outer);
    return parts;
  }

  // Joins R_p = r[0, nr) with S_p = s[0, ns).
  void join(const Stored* r, std::size_t nr, const Stored* s, std::size_t ns, MatchCollector& out,
            FirstDigitCounts counted = {}) {
    if (nr == 0 || ns == 0) return;
    if (local_bits_ == 0) {
      Stopwatch watch;
      build_and_probe(r, nr, s, ns, out);
      build_probe_seconds += watch.seconds();
      return;
    }
    Stopwatch watch;
    const LocalPartitions<Stored> parts = partition(r, nr, s, ns, counted);
    const double partitioned = watch.seconds();
    local_partition_seconds += partitioned;
    for (std::size_t i = 0; i < parts.count(); ++i) {
      const std::uint64_t r_begin = parts.r_start[i];
      const std::uint64_t s_begin = parts.s_start[i];
      build_and_probe(parts.r + r_begin, parts.r_start[i + 1] - r_begin, parts.s + s_begin, parts.s_start[i + 1] - s_begin,
                      out);
    }
    build_probe_seconds += watch.seconds() - partitioned;
  }

  // Builds over r and probes with s, splitting an oversized r into up to
  // kMaxBuildSplits cache-sized tables.
  void build_and_probe(const Stored* r, std::size_t nr, const Stored* s, std::size_t ns, MatchCollector& out) {
    if (nr == 0 || ns == 0) return;
    std::size_t chunk = nr;
    if (nr > build_budget_) {
      chunk = std::max<std::size_t>(build_budget_, (nr + kMaxBuildSplits - 1) / kMaxBuildSplits);
      ++build_splits;
    }
    for (std::size_t begin = 0; begin < nr; begin += chunk) {
      table_.build(r + begin, std::min(chunk, nr - begin));
      probe(table_, s, ns, out);
    }
  }

  void probe(const BucketChainTable<Format>& table, const Stored* s, std::size_t ns, MatchCollector& out) const {
    // Count and checksum live in registers: a store to `out` could alias the
    // table's tuples and would force reloads in the probe loop.
    const Format format = format_;
    std::uint64_t count = 0;
    std::uint64_t checksum = 0;
    if (out.keep_pairs) {
      table.probe(s, ns, [&](const Stored& r_item, const Stored& s_item) {
        ++count;
        checksum += pair_checksum(format.rid(r_item), format.rid(s_item));
        out.pairs.push_back({format.rid(r_item), format.rid(s_item)});
      });
    } else {
      table.probe(s, ns, [&](const Stored& r_item, const Stored& s_item) {
        ++count;
        checksum += pair_checksum(format.rid(r_item), format.rid(s_item));
      });
    }
    out.count += count;
    out.checksum += checksum;
  }

  unsigned local_bits() const { return local_bits_; }

  double local_partition_seconds = 0;
  double build_probe_seconds = 0;
  std::uint64_t build_splits = 0;

 private:
  Format format_;
  LocalRadixPartitioner<Stored> r_parts_;
  LocalRadixPartitioner<Stored> s_parts_;
  unsigned local_bits_;
  std::uint64_t build_budget_;
  BucketChainTable<Format> table_;
};

}  // namespace hpcdb
