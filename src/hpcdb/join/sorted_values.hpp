#pragma once
// The two ways the sort-based joins hold tuples (see sortmerge/sort_formats.hpp
// for the formats): encoding a fragment, sorting it by key, and joining two
// sorted arrays in blocks with a callback between blocks (so a rank can
// keep its network transfers moving while it joins).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "hpcdb/join/sortmerge/sort_formats.hpp"
#include "hpcdb/kernels/match_collector.hpp"
#include "hpcdb/kernels/merge_join_scan.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"

namespace hpcdb {

template <class Format>
void encode_into(const Format& format, std::span<const Tuple> tuples, typename Format::Stored* out) {
  for (std::size_t i = 0; i < tuples.size(); ++i) out[i] = format.encode(tuples[i]);
}

// Sorts values[0, n) by key in place; `scratch` holds n values.
template <class Stored>
void sort_by_key(Stored* values, std::size_t n, Stored* scratch) {
  if constexpr (std::is_same_v<Stored, std::uint64_t>) {
    sort_run(values, n, values, scratch);
  } else {
    (void)scratch;
    std::sort(values, values + n, [](const Stored& a, const Stored& b) { return a.key < b.key; });
  }
}

// All pairs of sorted r and sorted s into `out`, s taken `block` values at a
// time with between() called after each block. Each block is joined with
// the stretch of r its keys can meet.
template <class Format, class Between>
void join_sorted_in_blocks(const Format& format, const typename Format::Stored* r, std::size_t nr,
                           const typename Format::Stored* s, std::size_t ns, std::size_t block, MatchCollector& out,
                           Between between) {
  using Stored = typename Format::Stored;
  const auto key = [&](const Stored& v) { return format.key(v); };
  const auto rid = [&](const Stored& v) { return format.rid(v); };
  std::size_t r_first = 0;
  for (std::size_t first = 0; first < ns; first += block) {
    const std::size_t last = std::min(ns, first + block);
    const auto below = [&](const Stored& v, std::uint64_t k) { return key(v) < k; };
    const auto above = [&](std::uint64_t k, const Stored& v) { return k < key(v); };
    r_first = static_cast<std::size_t>(std::lower_bound(r + r_first, r + nr, key(s[first]), below) - r);
    const std::size_t r_last = static_cast<std::size_t>(std::upper_bound(r + r_first, r + nr, key(s[last - 1]), above) - r);
    if (r_last > r_first) merge_join_scan(r + r_first, r_last - r_first, s + first, last - first, key, rid, out);
    between();
  }
}

}  // namespace hpcdb
