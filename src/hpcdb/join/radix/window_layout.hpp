#pragma once
// Where every partition lives in its owner's receive window, derived from
// the global histograms alone, so every rank computes the same layout
// without further communication. A rank's window holds its inner partitions
// back to back, then (from the next cache line) its outer partitions.
#include <cstdint>
#include <vector>

namespace hpcdb {

struct WindowLayout {
  std::vector<std::uint64_t> inner_base;          // per partition: first slot in the owner's inner region
  std::vector<std::uint64_t> outer_base;          // per partition: first slot in the owner's outer region
  std::vector<std::uint64_t> inner_tuples;        // per rank: tuples it receives
  std::vector<std::uint64_t> outer_tuples;        // per rank
  std::vector<std::uint64_t> outer_region_offset; // per rank: byte offset of the outer region
  std::vector<std::uint64_t> window_bytes;        // per rank: exact window size
};

WindowLayout plan_windows(const std::vector<std::uint64_t>& inner_counts, const std::vector<std::uint64_t>& outer_counts,
                          const std::vector<int>& owner, int ranks, unsigned tuple_bytes);

}  // namespace hpcdb
