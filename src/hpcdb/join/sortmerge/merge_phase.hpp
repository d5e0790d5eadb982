#pragma once
// The sort-merge join's merge phase: the runs every sender put into this
// rank's window, per relation and sub-range, are merged level by level
// (fan-in F, in cache-sized pieces, run_merger.hpp) between the window and
// the merge buffer, until each sub-range is one sorted run; the sub-ranges
// lie in key order, so each relation ends as one sorted array.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hpcdb/core/memory.hpp"
#include "hpcdb/join/sortmerge/run_merger.hpp"
#include "hpcdb/join/sortmerge/run_placement.hpp"
#include "hpcdb/join/sortmerge/sort_merge_plan.hpp"
#include "hpcdb/kernels/sorted_runs.hpp"

namespace hpcdb {

template <class Stored>
struct MergedRelations {
  const Stored* inner = nullptr;
  const Stored* outer = nullptr;
  unsigned levels = 0;  // merge levels of the deeper relation
};

template <class Format>
MergedRelations<typename Format::Stored> merge_received_runs(const SortMergePlan& plan, Format format,
                                                             const RunPlacement& placement, std::byte* window,
                                                             const MemoryRegion& merge_buffer, std::size_t me) {
  using Stored = typename Format::Stored;
  const std::size_t ranks = placement.ranks, subranges = placement.subranges;
  const unsigned threads = placement.threads;
  const std::size_t run_length = plan.run_length;
  MergedRelations<Stored> merged;
  for (int relation = 0; relation < 2; ++relation) {
    const std::uint64_t offset_bytes = relation == 0 ? 0 : placement.outer_offsets[me];
    Stored* region = reinterpret_cast<Stored*>(window + offset_bytes);
    Stored* spare = reinterpret_cast<Stored*>(static_cast<std::byte*>(merge_buffer.data()) + offset_bytes);
    std::vector<std::vector<SortedRun<Stored>>> segments(subranges);  // the runs of each sub-range
    std::uint64_t offset = 0;
    for (std::size_t sub = 0; sub < subranges; ++sub) {
      for (std::size_t sender = 0; sender < ranks; ++sender) {
        for (unsigned t = 0; t < threads; ++t) {
          const std::uint64_t n =
              placement.incoming[((sender * subranges + sub) * 2 + static_cast<std::size_t>(relation)) * threads + t];
          for (std::uint64_t b = 0; b < n; b += run_length) {
            segments[sub].push_back({region + offset + b, std::min<std::uint64_t>(run_length, n - b)});
          }
          offset += n;
        }
      }
    }
    auto unmerged = [&] {
      return std::any_of(segments.begin(), segments.end(), [](const auto& runs) { return runs.size() > 1; });
    };
    unsigned levels = 0;
    Stored* source = region;
    Stored* target = spare;
    while (unmerged()) {
      ++levels;
      segments = merge_level(format, segments, plan.config.merge_fan_in, source, target, threads);
      std::swap(source, target);
    }
    merged.levels = std::max(merged.levels, levels);
    (relation == 0 ? merged.inner : merged.outer) = source;
  }
  return merged;
}

}  // namespace hpcdb
