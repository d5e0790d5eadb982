#include "hpcdb/txn/home_partitions.hpp"

#include <algorithm>

namespace hpcdb {

std::vector<std::vector<std::uint32_t>> assign_home_partitions(const AgentRoles& roles, const LockSpace& space,
                                                               HomeAssignment assignment) {
  const auto& agents = roles.txn_agents();
  std::vector<std::vector<std::uint32_t>> homes(agents.size());
  if (assignment == HomeAssignment::all) {
    for (auto& h : homes)
      for (std::uint32_t p = 0; p < space.partitions(); ++p) h.push_back(p);
    return homes;
  }
  std::vector<std::vector<int>> agents_on(static_cast<std::size_t>(roles.nodes()));
  for (std::size_t a = 0; a < agents.size(); ++a) agents_on[static_cast<std::size_t>(roles.node_of(agents[a]))].push_back(static_cast<int>(a));
  std::vector<std::vector<std::uint32_t>> partitions_on(static_cast<std::size_t>(roles.nodes()));
  std::vector<std::uint32_t> orphans;  // partitions on nodes without transaction agents
  for (std::uint32_t p = 0; p < space.partitions(); ++p) {
    const int owner = space.agent_ranks()[static_cast<std::size_t>(space.agent_of_partition(p))];
    const auto node = static_cast<std::size_t>(roles.node_of(owner));
    (agents_on[node].empty() ? orphans : partitions_on[node]).push_back(p);
  }
  for (std::size_t n = 0; n < agents_on.size(); ++n) {
    const auto& here = agents_on[n];
    const auto& whs = partitions_on[n];
    if (here.empty() || whs.empty()) continue;
    const std::size_t deals = std::max(here.size(), whs.size());
    for (std::size_t i = 0; i < deals; ++i) homes[static_cast<std::size_t>(here[i % here.size()])].push_back(whs[i % whs.size()]);
  }
  for (std::size_t i = 0; i < orphans.size(); ++i) homes[i % homes.size()].push_back(orphans[i]);
  std::uint32_t next = 0;
  for (auto& h : homes) {
    if (h.empty()) {
      h.push_back(next);
      next = (next + 1) % space.partitions();
    }
    std::sort(h.begin(), h.end());
    h.erase(std::unique(h.begin(), h.end()), h.end());
  }
  return homes;
}

}  // namespace hpcdb
