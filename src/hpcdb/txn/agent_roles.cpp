#include "hpcdb/txn/agent_roles.hpp"

#include <algorithm>

#include "hpcdb/core/error.hpp"
#include "hpcdb/core/named_values.hpp"

namespace hpcdb {

AgentPlacement parse_agent_placement(const std::string& text) {
  constexpr NamedValues<AgentPlacement, 2> names{{{AgentPlacement::spread, "spread"}, {AgentPlacement::first, "first"}}};
  return value_named(text, names, "placement");
}

AgentRoles::AgentRoles(MPI_Comm comm, int lock_agents, AgentPlacement placement) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

  // Node of every rank: number nodes by their lowest rank.
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int leader = rank;
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  std::vector<int> leaders(static_cast<std::size_t>(size));
  MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
  std::vector<int> distinct = leaders;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  nodes_ = static_cast<int>(distinct.size());
  node_of_.resize(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    node_of_[static_cast<std::size_t>(r)] =
        static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), leaders[static_cast<std::size_t>(r)]) -
                         distinct.begin());
  }

  if (size < 2) throw UsageError("transactions need at least 2 ranks: a lock agent and a transaction agent");
  if (lock_agents < 1 || lock_agents >= size) {
    throw UsageError("--lock-agents must be between 1 and " + std::to_string(size - 1) + " for " +
                     std::to_string(size) + " ranks (at least one rank must run transactions)");
  }

  std::vector<bool> is_lock_agent(static_cast<std::size_t>(size), false);
  if (placement == AgentPlacement::first) {
    for (int r = 0; r < lock_agents; ++r) is_lock_agent[static_cast<std::size_t>(r)] = true;
  } else {
    std::vector<std::vector<int>> members(static_cast<std::size_t>(nodes_));
    for (int r = 0; r < size; ++r) members[static_cast<std::size_t>(node_of(r))].push_back(r);
    std::vector<std::size_t> taken(members.size(), 0);
    int placed = 0;
    for (std::size_t n = 0; placed < lock_agents; n = (n + 1) % members.size()) {
      if (taken[n] < members[n].size()) {
        is_lock_agent[static_cast<std::size_t>(members[n][taken[n]++])] = true;
        ++placed;
      }
    }
  }
  lock_index_.assign(static_cast<std::size_t>(size), -1);
  txn_index_.assign(static_cast<std::size_t>(size), -1);
  for (int r = 0; r < size; ++r) {
    if (is_lock_agent[static_cast<std::size_t>(r)]) {
      lock_index_[static_cast<std::size_t>(r)] = static_cast<int>(lock_agents_.size());
      lock_agents_.push_back(r);
    } else {
      txn_index_[static_cast<std::size_t>(r)] = static_cast<int>(txn_agents_.size());
      txn_agents_.push_back(r);
    }
  }
}

std::vector<int> AgentRoles::local_lock_agents(int rank) const {
  std::vector<int> out;
  for (std::size_t i = 0; i < lock_agents_.size(); ++i)
    if (node_of(lock_agents_[i]) == node_of(rank)) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> AgentRoles::remote_lock_agents(int rank) const {
  std::vector<int> out;
  for (std::size_t i = 0; i < lock_agents_.size(); ++i)
    if (node_of(lock_agents_[i]) != node_of(rank)) out.push_back(static_cast<int>(i));
  return out;
}

}  // namespace hpcdb
