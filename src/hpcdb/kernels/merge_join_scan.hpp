#pragma once
// The matching phase of a sort-merge join: one scan over two relations
// sorted by key. Groups of equal keys on both sides produce all their pairs.
#include <cstddef>
#include <cstdint>

#include "hpcdb/kernels/match_collector.hpp"

namespace hpcdb {

namespace detail {

// The scan, with pair materialization decided at compile time: without it
// the loop keeps all its state in registers (with a push_back in the loop,
// the compiler spilled the checksum and bounds to the stack). Never
// inlined, and aligned to a cache line: inlined into the join, the loop
// shared registers with the caller's state (pointers and the checksum went
// to the stack), and its speed changed by 12% with unrelated edits that
// only moved it.
template <bool KeepPairs, class Stored, class Key, class Rid>
[[gnu::noinline, gnu::aligned(64)]] void merge_join_scan(const Stored* r, std::size_t nr, const Stored* s, std::size_t ns, Key key, Rid rid,
                     MatchCollector& out) {
  std::uint64_t count = 0;
  std::uint64_t checksum = 0;
  std::size_t i = 0, j = 0;
  while (i < nr && j < ns) {
    const auto kr = key(r[i]);
    const auto ks = key(s[j]);
    if (kr != ks) {
      // No branch on which side is behind: it is a coin flip for the predictor.
      i += kr < ks;
      j += ks < kr;
      continue;
    }
    std::uint64_t rid_sum_r = rid(r[i]), rid_sum_s = rid(s[j]);
    std::size_t i_end = i + 1, j_end = j + 1;
    for (; i_end < nr && key(r[i_end]) == kr; ++i_end) rid_sum_r += rid(r[i_end]);
    for (; j_end < ns && key(s[j_end]) == ks; ++j_end) rid_sum_s += rid(s[j_end]);
    const std::uint64_t nr_group = i_end - i, ns_group = j_end - j;
    if constexpr (KeepPairs) {
      for (std::size_t a = i; a < i_end; ++a) {
        for (std::size_t b = j; b < j_end; ++b) out.pairs.push_back({rid(r[a]), rid(s[b])});
      }
    }
    // The checksum of all pairs of the group in closed form (mod 2^64): a
    // loop over the pairs, which the compiler vectorized, cost the common
    // one-to-one group about as much as the rest of the scan.
    checksum += pair_checksum(rid_sum_r * ns_group, rid_sum_s * nr_group);
    count += nr_group * ns_group;
    i = i_end;
    j = j_end;
  }
  out.count += count;
  out.checksum += checksum;
}

}  // namespace detail

// key(x) gives the (comparable) key of a stored tuple, rid(x) its rid.
template <class Stored, class Key, class Rid>
void merge_join_scan(const Stored* r, std::size_t nr, const Stored* s, std::size_t ns, Key key, Rid rid,
                     MatchCollector& out) {
  if (out.keep_pairs) detail::merge_join_scan<true>(r, nr, s, ns, key, rid, out);
  else detail::merge_join_scan<false>(r, nr, s, ns, key, rid, out);
}

}  // namespace hpcdb
