#include "hpcdb/join/sortmerge/splitter_index.hpp"

#include <algorithm>
#include <bit>

#include "hpcdb/core/error.hpp"

namespace hpcdb {

SplitterIndex::SplitterIndex(const std::vector<std::uint64_t>& splitters) {
  if (splitters.empty()) throw Error("a splitter index needs at least one splitter");
  if (splitters.size() >= kOwnTable) throw Error("too many splitters for a splitter index");
  tables_.emplace_back();
  build(splitters, splitters.front(), splitters.back() - splitters.front(), 0,
        static_cast<std::uint32_t>(splitters.size()), 0);
}

// Fills `table` over the keys [low, low + span], whose splitters are
// [from, to), and cuts again every bucket with more than kMostSteps.
void SplitterIndex::build(const std::vector<std::uint64_t>& splitters, std::uint64_t low, std::uint64_t span,
                          std::uint32_t from, std::uint32_t to, std::size_t table) {
  // About eight buckets per splitter, at most 2^16 (the first table stays in L2).
  const std::uint64_t wanted = std::min<std::uint64_t>(std::uint64_t{1} << 16, std::bit_ceil(8ull * (to - from)));
  unsigned shift = 0;
  while ((span >> shift) >= wanted) ++shift;
  const std::uint64_t buckets = (span >> shift) + 1;
  const auto base = static_cast<std::uint32_t>(entries_.size());
  tables_[table] = Table{low, shift, base};
  entries_.resize(entries_.size() + buckets);
  auto first_at_or_above = [&](std::uint64_t key) {
    return static_cast<std::uint32_t>(std::lower_bound(splitters.begin() + from, splitters.begin() + to, key) -
                                      splitters.begin());
  };
  std::uint32_t first = from;  // of bucket 0, which starts at the table's lowest key
  for (std::uint64_t b = 0; b < buckets; ++b) {
    const std::uint32_t next = b + 1 < buckets ? first_at_or_above(low + ((b + 1) << shift)) : to;
    if (next - first > static_cast<std::uint32_t>(kMostSteps) && shift > 0) {
      const auto own = static_cast<std::uint32_t>(tables_.size());
      tables_.emplace_back();
      entries_[base + b] = kOwnTable | own;
      build(splitters, low + (b << shift), (std::uint64_t{1} << shift) - 1, first, next, own);
    } else {
      entries_[base + b] = first;
    }
    first = next;
  }
}

}  // namespace hpcdb
