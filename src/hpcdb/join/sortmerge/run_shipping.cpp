#include "hpcdb/join/sortmerge/run_shipping.hpp"

#include <algorithm>

#include "hpcdb/core/bits.hpp"

namespace hpcdb {

std::vector<KeyField> range_key_fields(const KeyRanges& ranges, std::uint64_t min_key, std::uint64_t max_key) {
  const unsigned count = ranges.count();
  std::vector<std::uint64_t> lowest(count);
  for (unsigned c = 0; c < count; ++c) lowest[c] = std::max(ranges.lowest_key(c), min_key);
  std::vector<KeyField> fields(count);
  for (unsigned c = 0; c < count; ++c) {
    // Range c ends just before the next range's lowest key, if it has one.
    const bool next_starts = c + 1 < count && ranges.range_of(lowest[c + 1]) > c && lowest[c + 1] > lowest[c];
    const std::uint64_t highest = next_starts ? std::min(lowest[c + 1] - 1, max_key) : max_key;
    fields[c] = {lowest[c], highest >= lowest[c] ? bit_width_of(highest - lowest[c]) : 0};
  }
  return fields;
}

}  // namespace hpcdb
