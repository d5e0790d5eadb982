#include "hpcdb/net/bench/netbench_results.hpp"

namespace hpcdb {

SizeSeries& NetbenchResults::series(std::vector<SizeSeries>& of, const std::string& transport, int receivers) {
  for (SizeSeries& s : of) {
    if (s.transport == transport && s.receivers == receivers) return s;
  }
  of.push_back({transport, receivers, {}});
  return of.back();
}

MixedRow& NetbenchResults::mixed_row(const std::string& transport) {
  for (MixedRow& m : mixed) {
    if (m.transport == transport) return m;
  }
  return mixed.emplace_back(MixedRow{transport, {}});
}

PriorityRow& NetbenchResults::priority_row(const std::string& variant, std::size_t flood_bytes) {
  for (PriorityRow& row : priority) {
    if (row.variant == variant && row.flood_bytes == flood_bytes) return row;
  }
  return priority.emplace_back(PriorityRow{variant, flood_bytes, {}});
}

}  // namespace hpcdb
