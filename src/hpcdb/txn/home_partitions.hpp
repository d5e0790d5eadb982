#pragma once
// Which partitions each transaction agent issues transactions for (TPC-C:
// its terminals' home warehouses). As in the thesis, a partition's
// transactions come from agents on the node that holds its data when there
// are any: the partitions of a node are dealt round-robin over that node's
// transaction agents (several agents share a partition when they outnumber
// its partitions); partitions of nodes without transaction agents, and agents
// of nodes without partitions, are dealt round-robin over all. Every
// partition has an agent and every agent at least one partition. With
// HomeAssignment::all every agent issues transactions for every partition.
#include <vector>

#include "hpcdb/txn/agent_roles.hpp"
#include "hpcdb/txn/lock_space.hpp"
#include "hpcdb/txn/txn_config.hpp"

namespace hpcdb {

// Per transaction agent (by index), its home partitions (ascending).
std::vector<std::vector<std::uint32_t>> assign_home_partitions(const AgentRoles& roles, const LockSpace& space,
                                                               HomeAssignment assignment = HomeAssignment::local);

}  // namespace hpcdb
