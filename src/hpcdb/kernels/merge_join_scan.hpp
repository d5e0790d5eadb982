#pragma once
// The matching phase of a sort-merge join: one scan over two relations
// sorted by key. Groups of equal keys on both sides produce all their pairs.
#include <cstddef>
#include <cstdint>

#include "hpcdb/kernels/match_collector.hpp"

namespace hpcdb {

// key(x) gives the (comparable) key of a stored tuple, rid(x) its rid.
template <class Stored, class Key, class Rid>
void merge_join_scan(const Stored* r, std::size_t nr, const Stored* s, std::size_t ns, Key key, Rid rid,
                     MatchCollector& out) {
  std::uint64_t count = 0;
  std::uint64_t checksum = 0;
  const bool keep_pairs = out.keep_pairs;
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
    std::size_t i_end = i + 1, j_end = j + 1;
    while (i_end < nr && key(r[i_end]) == kr) ++i_end;
    while (j_end < ns && key(s[j_end]) == ks) ++j_end;
    for (std::size_t a = i; a < i_end; ++a) {
      const std::uint64_t rid_r = rid(r[a]);
      for (std::size_t b = j; b < j_end; ++b) {
        const std::uint64_t rid_s = rid(s[b]);
        checksum += pair_checksum(rid_r, rid_s);
        if (keep_pairs) out.pairs.push_back({rid_r, rid_s});
      }
    }
    count += (i_end - i) * (j_end - j);
    i = i_end;
    j = j_end;
  }
  out.count += count;
  out.checksum += checksum;
}

}  // namespace hpcdb
