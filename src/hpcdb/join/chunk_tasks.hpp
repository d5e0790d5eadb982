#pragma once
// Hands out chunks of a join's input, the unit of work of its passes over
// the input, to worker threads: every rank's fragment of each relation is cut
// into the same number of nearly equal chunks. When the fragments are
// node-shared (and node sharing is on), a worker done with its own rank's
// list of chunks (NodeTaskCounter) takes the other ranks' chunks, so the
// node's ranks finish a pass together even when one core runs slower;
// otherwise a rank's threads share only its own chunks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/kernels/tuple.hpp"
#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_task_counter.hpp"

namespace hpcdb {

struct ChunkTask {
  int node_rank = 0;     // whose fragment
  int relation = 0;      // 0 inner, 1 outer
  unsigned chunk = 0;
  std::span<const Tuple> tuples;
};

// Chunks per fragment and relation: `requested` when not 0, else about 2^20
// tuples each (the unit of balance), at most `max_chunks`, and at least one
// per worker thread.
inline unsigned input_chunks(unsigned requested, std::uint64_t largest_relation, int ranks, unsigned threads,
                             std::uint64_t max_chunks = 64) {
  if (requested > 0) return requested;
  constexpr std::uint64_t kChunkTuples = std::uint64_t{1} << 20;
  const std::uint64_t fragment = largest_relation / static_cast<std::uint64_t>(std::max(ranks, 1)) + 1;
  const std::uint64_t chunks = std::clamp<std::uint64_t>((fragment + kChunkTuples - 1) / kChunkTuples, 1, std::max<std::uint64_t>(max_chunks, 1));
  return static_cast<unsigned>(std::max<std::uint64_t>(chunks, threads));
}

class ChunkTasks {
 public:
  // Collective over the node. Helping other ranks needs `help_others` and
  // every fragment of the node readable by every rank of the node.
  ChunkTasks(const Cluster& cluster, NodeTaskCounter& counter, unsigned chunks, bool help_others, const Relation& inner,
             const Relation& outer)
      : counter_(counter), chunks_(chunks), sources_(static_cast<std::size_t>(cluster.node_size())) {
    int readable = help_others && shares_node(cluster, inner) && shares_node(cluster, outer) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &readable, 1, MPI_INT, MPI_MIN, cluster.node());
    node_wide_ = readable != 0;
    for (int r = 0; r < cluster.node_size(); ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (node_wide_) {
        sources_[i] = {inner.node_fragments[i], outer.node_fragments[i]};
      } else if (r == cluster.node_rank()) {
        sources_[i] = {std::span<const Tuple>(inner.tuples.data(), inner.tuples.size()),
                       std::span<const Tuple>(outer.tuples.data(), outer.tuples.size())};
      }
    }
  }

  bool node_wide() const { return node_wide_; }

  // Collective over the node: a new round over all tasks.
  void start() { counter_.start(std::vector<std::size_t>(sources_.size(), 2 * std::size_t{chunks_})); }

  // Any thread. False when no task is left in this round. A worker takes its
  // own rank's chunks first, then (node-wide, and if `may_help`) helps the
  // other ranks with theirs.
  bool next(ChunkTask& task, bool may_help = true) {
    NodeTaskCounter::Task taken;
    if (!counter_.next(taken, node_wide_ && may_help)) return false;
    task.node_rank = taken.list;
    task.relation = static_cast<int>(taken.index / chunks_);
    task.chunk = static_cast<unsigned>(taken.index % chunks_);
    const std::span<const Tuple> fragment = sources_[static_cast<std::size_t>(taken.list)].fragments[task.relation];
    const std::size_t first = split_point(fragment.size(), chunks_, task.chunk);
    task.tuples = fragment.subspan(first, split_point(fragment.size(), chunks_, task.chunk + 1) - first);
    return true;
  }

 private:
  struct Source {
    std::span<const Tuple> fragments[2];
  };

  static bool shares_node(const Cluster& cluster, const Relation& relation) {
    const auto own = static_cast<std::size_t>(cluster.node_rank());
    return relation.node_fragments.size() == static_cast<std::size_t>(cluster.node_size()) &&
           relation.node_fragments[own].data() == relation.tuples.data() &&
           relation.node_fragments[own].size() == relation.tuples.size();
  }

  NodeTaskCounter& counter_;
  unsigned chunks_;
  bool node_wide_ = false;
  std::vector<Source> sources_;  // per node rank; only this rank's unless node-wide
};

}  // namespace hpcdb
