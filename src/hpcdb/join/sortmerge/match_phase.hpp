#pragma once
// The sort-merge join's match phase: one merge-join scan over both sorted
// relations; with several threads, each scans consecutive key ranges (never
// splitting a key), and their matches join in key order.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/kernels/merge_join_scan.hpp"

namespace hpcdb {

template <class Format>
MatchCollector match_sorted(WorkerRunner& workers, Format format, const typename Format::Stored* r, std::uint64_t nr,
                            const typename Format::Stored* s, std::uint64_t ns, unsigned threads, bool keep_pairs) {
  using Stored = typename Format::Stored;
  auto key_of = [format](const Stored& v) { return format.key(v); };
  std::vector<std::uint64_t> r_cut(threads + 1, nr), s_cut(threads + 1, ns);
  r_cut[0] = s_cut[0] = 0;
  for (unsigned t = 1; t < threads; ++t) {
    std::uint64_t cut = std::max(r_cut[t - 1], nr * t / threads);
    while (cut > r_cut[t - 1] && cut < nr && key_of(r[cut]) == key_of(r[cut - 1])) ++cut;
    r_cut[t] = cut;
    s_cut[t] = cut == nr ? ns
                         : static_cast<std::uint64_t>(std::lower_bound(s, s + ns, r[cut], [&](const Stored& a, const Stored& b) {
                             return key_of(a) < key_of(b);
                           }) - s);
    s_cut[t] = std::max(s_cut[t], s_cut[t - 1]);
  }
  std::vector<MatchCollector> collectors(threads);
  workers.run_workers(threads, [&](unsigned t) {
    collectors[t].keep_pairs = keep_pairs;
    merge_join_scan(
        r + r_cut[t], r_cut[t + 1] - r_cut[t], s + s_cut[t], s_cut[t + 1] - s_cut[t], key_of,
        [format](const Stored& v) { return format.rid(v); }, collectors[t]);
  });
  MatchCollector matches;
  for (MatchCollector& c : collectors) matches.merge(std::move(c));  // thread order = key order
  return matches;
}

}  // namespace hpcdb
