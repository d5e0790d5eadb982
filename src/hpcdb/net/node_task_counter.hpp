#pragma once
// Task lists shared by the ranks of a node: one list per rank, each handed
// out by its own atomic counter in node-shared memory. A worker takes tasks
// from its own rank's list first and then helps the other ranks with theirs
// (the next rank first), so that work stays with its owner (and its data
// local) while the owner keeps up, and a rank whose core runs slower, or
// that owns more work, does not hold up its node.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"

namespace hpcdb {

class NodeTaskCounter {
 public:
  struct Task {
    int list = 0;           // node rank whose list it came from
    std::size_t index = 0;  // within that list
  };

  // Collective over the node.
  explicit NodeTaskCounter(const Cluster& cluster);

  // Collective over the node: new lists, counts[r] tasks in node rank r's
  // list, the same counts on every rank. Returns once every rank may call
  // next(); the previous lists must no longer be in use on any rank.
  void start(std::vector<std::size_t> counts);

  // Any thread of any rank of the node. False when every list is exhausted
  // (only this rank's list when `help_others` is false).
  bool next(Task& task, bool help_others = true);

 private:
  std::uint64_t* counter(int node_rank) const;

  const Cluster& cluster_;
  NodeSharedArena arena_;  // each rank's counter at the start of its segment
  std::vector<std::size_t> counts_;
};

}  // namespace hpcdb
