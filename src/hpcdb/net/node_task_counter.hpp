#pragma once
// Hands out task indices 0..count-1 to whichever worker of any rank on this
// node asks first. The counter is one atomic word in node-shared memory, so
// co-located ranks share a task list: a rank whose core runs slower, or that
// owns less work, does not hold up the others.
#include <cstddef>
#include <cstdint>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"

namespace hpcdb {

class NodeTaskCounter {
 public:
  // Collective over the node.
  explicit NodeTaskCounter(const Cluster& cluster);

  // Collective over the node: a new list of `count` tasks, the same count on
  // every rank of the node. Returns once every rank may call next(); the
  // previous list must no longer be in use on any rank of the node.
  void start(std::size_t count);

  // Any thread of any rank of the node. Returns false when no task is left.
  bool next(std::size_t& task);

 private:
  const Cluster& cluster_;
  NodeSharedArena arena_;
  std::uint64_t* counter_ = nullptr;  // in node rank 0's segment
  std::size_t count_ = 0;
};

}  // namespace hpcdb
