#pragma once
// Which ranks are lock agents and which are transaction agents, and on which
// node each one runs. (Which locks each lock agent owns: lock_space.hpp.)
#include <mpi.h>

#include <string>
#include <vector>


namespace hpcdb {

enum class AgentPlacement {
  spread,  // lock agents dealt round-robin over the nodes (lowest node ranks first)
  first,   // the first ranks of the job are the lock agents
};

AgentPlacement parse_agent_placement(const std::string& text);

class AgentRoles {
 public:
  // Collective over `comm`. Throws UsageError when the split is impossible.
  AgentRoles(MPI_Comm comm, int lock_agents, AgentPlacement placement);

  const std::vector<int>& lock_agents() const { return lock_agents_; }   // world ranks, in lock-range order
  const std::vector<int>& txn_agents() const { return txn_agents_; }
  int lock_agent_index(int rank) const { return lock_index_[static_cast<std::size_t>(rank)]; }  // -1 if none
  int txn_agent_index(int rank) const { return txn_index_[static_cast<std::size_t>(rank)]; }
  int node_of(int rank) const { return node_of_[static_cast<std::size_t>(rank)]; }
  int nodes() const { return nodes_; }

  // Lock agents on the same node as `rank`, and on other nodes (as lock-agent indexes).
  std::vector<int> local_lock_agents(int rank) const;
  std::vector<int> remote_lock_agents(int rank) const;

 private:
  std::vector<int> lock_agents_;
  std::vector<int> txn_agents_;
  std::vector<int> lock_index_;
  std::vector<int> txn_index_;
  std::vector<int> node_of_;
  int nodes_ = 1;
};

}  // namespace hpcdb
