#include "hpcdb/join/radix/window_layout.hpp"

#include "hpcdb/join/receive_windows.hpp"

namespace hpcdb {

WindowLayout plan_windows(const std::vector<std::uint64_t>& inner_counts, const std::vector<std::uint64_t>& outer_counts,
                          const std::vector<int>& owner, int ranks, unsigned tuple_bytes) {
  const auto rank_count = static_cast<std::size_t>(ranks);
  WindowLayout layout;
  layout.inner_base.resize(inner_counts.size());
  layout.outer_base.resize(outer_counts.size());
  layout.inner_tuples.assign(rank_count, 0);
  layout.outer_tuples.assign(rank_count, 0);
  for (std::size_t p = 0; p < inner_counts.size(); ++p) {
    const auto q = static_cast<std::size_t>(owner[p]);
    layout.inner_base[p] = layout.inner_tuples[q];
    layout.outer_base[p] = layout.outer_tuples[q];
    layout.inner_tuples[q] += inner_counts[p];
    layout.outer_tuples[q] += outer_counts[p];
  }
  layout.outer_region_offset.resize(rank_count);
  layout.window_bytes.resize(rank_count);
  for (std::size_t q = 0; q < rank_count; ++q) {
    const WindowRegions regions = window_regions(layout.inner_tuples[q], layout.outer_tuples[q], tuple_bytes);
    layout.outer_region_offset[q] = regions.outer_offset;
    layout.window_bytes[q] = regions.bytes;
  }
  return layout;
}

}  // namespace hpcdb
