#include "hpcdb/join/sortmerge/key_ranges.hpp"

#include <algorithm>

#include "hpcdb/core/bits.hpp"

namespace hpcdb {

KeyRanges KeyRanges::equal_width(std::uint64_t min_key, std::uint64_t max_key, unsigned ranges) {
  KeyRanges k;
  k.count_ = ranges;
  k.min_key_ = min_key;
  k.max_key_ = max_key;
  if (max_key < min_key) return k;  // no keys at all
  const Wide span = static_cast<Wide>(max_key - min_key) + 1;
  if (span <= ranges) {
    k.direct_ = true;
  } else {
    const unsigned narrow_scale = 64 - bit_width_of(ranges);
    const Wide narrow_multiplier = (static_cast<Wide>(ranges) << narrow_scale) / span;
    if (narrow_multiplier >= (Wide{1} << 24)) {
      k.scale_ = narrow_scale;
      k.multiplier_ = static_cast<std::uint64_t>(narrow_multiplier);
    } else {
      k.multiplier_ = static_cast<std::uint64_t>((static_cast<Wide>(ranges) << 64) / span);
    }
  }
  return k;
}

KeyRanges KeyRanges::between_splitters(std::vector<std::uint64_t> splitters) {
  KeyRanges k;
  k.count_ = static_cast<unsigned>(splitters.size() + 1);
  k.splitters_ = std::move(splitters);
  if (!k.splitters_.empty()) k.splitter_index_ = SplitterIndex(k.splitters_);
  return k;
}

std::uint64_t KeyRanges::lowest_key(unsigned range) const {
  // range_of() never decreases with the key over [min_key_, max_key_]
  // (splitters: over all keys): binary search for the first key at or past
  // `range`.
  std::uint64_t lo = splitters_.empty() ? min_key_ : 0;
  std::uint64_t hi = splitters_.empty() ? max_key_ : ~std::uint64_t{0};
  if (hi < lo) return hi;
  if (range_of(hi) < range) return hi;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (range_of(mid) >= range) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

std::vector<std::uint64_t> sample_splitters(const Cluster& cluster, const Relation& inner, const Relation& outer,
                                            unsigned ranges) {
  // Per rank and relation: 256 per range, but at most 2^16 (with 2048
  // ranges, half a million per relation made choosing the splitters take
  // 0.18 s, mostly sorting what every rank gathered). With at most 4096
  // sub-ranges per rank that still leaves 32 samples per range over all
  // ranks when fragments are large enough: plenty for sub-ranges, whose
  // sizes only need to stay within their runs.
  constexpr std::size_t kSamplesPerRange = 256;
  constexpr std::size_t kMostSamples = std::size_t{1} << 16;
  const std::size_t wanted = std::min(kSamplesPerRange * ranges, kMostSamples);
  std::vector<std::uint64_t> mine;
  for (const Relation* relation : {&inner, &outer}) {
    const std::size_t n = relation->tuples.size();
    // Proportional to the fragment's size, evenly strided (fragments are in random key order).
    const std::size_t take = std::min(n, wanted);
    for (std::size_t i = 0; i < take; ++i) mine.push_back(relation->tuples[i * n / take].key);
  }
  const int ranks = cluster.size();
  std::vector<int> counts(static_cast<std::size_t>(ranks));
  const int my_count = static_cast<int>(mine.size());
  MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, cluster.world());
  std::vector<int> offsets(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
  std::vector<std::uint64_t> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), my_count, MPI_UINT64_T, all.data(), counts.data(), offsets.data(), MPI_UINT64_T,
                 cluster.world());
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> splitters;
  for (unsigned i = 1; i < ranges; ++i) {
    splitters.push_back(all.empty() ? 0 : all[std::min(all.size() - 1, all.size() * i / ranges)]);
  }
  return splitters;
}

}  // namespace hpcdb
