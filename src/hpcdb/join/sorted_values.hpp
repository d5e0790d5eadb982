#pragma once
// The two ways the sort-based joins hold tuples (see kernels/sort_formats.hpp
// for the formats): encoding a fragment, sorting it by key, and joining two
// sorted arrays in blocks with a callback between blocks (so a rank can
// keep its network transfers moving while it joins).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "hpcdb/kernels/sort_formats.hpp"
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

// Copies in[0, n) into out and sorts the copy by key (in stays as it is);
// scratch holds n values.
template <class Stored>
void copy_sorted_by_key(const Stored* in, std::size_t n, Stored* out, Stored* scratch) {
  std::copy(in, in + n, out);
  sort_by_key(out, n, scratch);
}

// Encodes `tuples` into out and sorts them by key; scratch holds as many values.
template <class Format>
void encode_sorted(const Format& format, std::span<const Tuple> tuples, typename Format::Stored* out,
                   typename Format::Stored* scratch) {
  encode_into(format, tuples, out);
  sort_by_key(out, tuples.size(), scratch);
}

// The pairs of r[i, i_end) and s[j, j_end), one key's groups on both sides
// (their rid sums given), counted and checksummed, kept when `out` keeps pairs.
template <class Format>
void add_group_matches(const Format& format, const typename Format::Stored* r, std::size_t i, std::size_t i_end,
                       std::uint64_t rid_sum_r, const typename Format::Stored* s, std::size_t j, std::size_t j_end,
                       std::uint64_t rid_sum_s, MatchCollector& out) {
  const std::uint64_t nr_group = i_end - i, ns_group = j_end - j;
  if (nr_group == 0) return;
  if (out.keep_pairs) {
    for (std::size_t a = i; a < i_end; ++a) {
      for (std::size_t b = j; b < j_end; ++b) out.pairs.push_back({format.rid(r[a]), format.rid(s[b])});
    }
  }
  out.count += nr_group * ns_group;
  out.checksum += pair_checksum(rid_sum_r * ns_group, rid_sum_s * nr_group);
}

// All pairs of a short sorted s with a much longer sorted r: each group of
// equal s keys finds its r keys by a galloping search from where the last
// group ended, so the cost grows with |s| log(|r| / |s|), not with |r|.
template <class Format>
void gallop_join(const Format& format, const typename Format::Stored* r, std::size_t nr,
                 const typename Format::Stored* s, std::size_t ns, MatchCollector& out) {
  using Stored = typename Format::Stored;
  const auto below = [&](const Stored& v, std::uint64_t k) { return format.key(v) < k; };
  std::size_t i = 0, j = 0;
  while (j < ns && i < nr) {
    const std::uint64_t k = format.key(s[j]);
    std::size_t j_end = j + 1;
    std::uint64_t rid_sum_s = format.rid(s[j]);
    for (; j_end < ns && format.key(s[j_end]) == k; ++j_end) rid_sum_s += format.rid(s[j_end]);
    // Gallop: the first r key >= k lies in (i + step / 2, i + step].
    std::size_t step = 1;
    while (i + step < nr && format.key(r[i + step]) < k) step *= 2;
    const std::size_t low = i + step / 2, high = std::min(nr, i + step + 1);
    i = static_cast<std::size_t>(std::lower_bound(r + low, r + high, k, below) - r);
    std::size_t i_end = i;
    std::uint64_t rid_sum_r = 0;
    for (; i_end < nr && format.key(r[i_end]) == k; ++i_end) rid_sum_r += format.rid(r[i_end]);
    add_group_matches(format, r, i, i_end, rid_sum_r, s, j, j_end, rid_sum_s, out);
    i = i_end;
    j = j_end;
  }
}

// All pairs of sorted r and sorted s into `out`, s taken `block` values at a
// time with between() called after each block. Each block is joined with
// the stretch of r its keys can meet: by one merge scan, or by galloping
// when that stretch is far longer than the block (a small chunk against a
// large relation).
template <class Format, class Between>
void join_sorted_in_blocks(const Format& format, const typename Format::Stored* r, std::size_t nr,
                           const typename Format::Stored* s, std::size_t ns, std::size_t block, MatchCollector& out,
                           Between between) {
  using Stored = typename Format::Stored;
  constexpr std::size_t kGallopRatio = 16;
  const auto key = [&](const Stored& v) { return format.key(v); };
  const auto rid = [&](const Stored& v) { return format.rid(v); };
  std::size_t r_first = 0;
  for (std::size_t first = 0; first < ns; first += block) {
    const std::size_t last = std::min(ns, first + block);
    const auto below = [&](const Stored& v, std::uint64_t k) { return key(v) < k; };
    const auto above = [&](std::uint64_t k, const Stored& v) { return k < key(v); };
    r_first = static_cast<std::size_t>(std::lower_bound(r + r_first, r + nr, key(s[first]), below) - r);
    const std::size_t r_last = static_cast<std::size_t>(std::upper_bound(r + r_first, r + nr, key(s[last - 1]), above) - r);
    const std::size_t r_count = r_last - r_first;
    if (r_count > kGallopRatio * (last - first)) {
      gallop_join(format, r + r_first, r_count, s + first, last - first, out);
    } else if (r_count > 0) {
      merge_join_scan(r + r_first, r_count, s + first, last - first, key, rid, out);
    }
    between();
  }
}

}  // namespace hpcdb
