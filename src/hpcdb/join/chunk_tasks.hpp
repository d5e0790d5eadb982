#pragma once
// Hands out chunks of a join's input, the unit of work of its passes over
// the input, to worker threads: every rank's fragment of each relation is cut
// into the same number of nearly equal chunks. When the fragments are
// node-shared (and node sharing is on), the tasks are every chunk of every
// rank of the node, one list per rank (NodeTaskCounter), so the node's ranks
// finish a pass together even when one core runs slower; otherwise a rank's
// threads share its own chunks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
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

// Chunks per fragment and relation: about 2^20 tuples each (the unit of
// balance), at most `max_chunks`, and at least one per worker thread.
inline unsigned default_input_chunks(std::uint64_t largest_relation, int ranks, unsigned threads,
                                     std::uint64_t max_chunks = 64) {
  constexpr std::uint64_t kChunkTuples = std::uint64_t{1} << 20;
  const std::uint64_t fragment = largest_relation / static_cast<std::uint64_t>(std::max(ranks, 1)) + 1;
  const std::uint64_t chunks = std::clamp<std::uint64_t>((fragment + kChunkTuples - 1) / kChunkTuples, 1, std::max<std::uint64_t>(max_chunks, 1));
  return static_cast<unsigned>(std::max<std::uint64_t>(chunks, threads));
}

class ChunkTasks {
 public:
  // Collective over the node. `node_counter` null: rank-local tasks only.
  ChunkTasks(const Cluster& cluster, NodeTaskCounter* node_counter, unsigned chunks, const Relation& inner,
             const Relation& outer)
      : chunks_(chunks) {
    const bool mine_shared = node_counter != nullptr && shares_node(cluster, inner) && shares_node(cluster, outer);
    int all_shared = mine_shared ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &all_shared, 1, MPI_INT, MPI_MIN, cluster.node());
    if (all_shared != 0) {
      node_counter_ = node_counter;
      for (int r = 0; r < cluster.node_size(); ++r) {
        const auto i = static_cast<std::size_t>(r);
        sources_.push_back({r, {inner.node_fragments[i], outer.node_fragments[i]}});
      }
    } else {
      sources_.push_back({cluster.node_rank(), {std::span<const Tuple>(inner.tuples.data(), inner.tuples.size()),
                                                std::span<const Tuple>(outer.tuples.data(), outer.tuples.size())}});
    }
  }

  bool node_wide() const { return node_counter_ != nullptr; }

  // Collective over the node when node-wide: a new round over all tasks.
  void start() {
    if (node_counter_ != nullptr) {
      node_counter_->start(std::vector<std::size_t>(sources_.size(), 2 * std::size_t{chunks_}));
    } else {
      local_.emplace(2 * std::size_t{chunks_});
    }
  }

  // Any thread. False when no task is left in this round. Node-wide, a
  // worker takes its own rank's chunks first, then (if `help_others`) helps
  // the other ranks with theirs.
  bool next(ChunkTask& task, bool help_others = true) {
    std::size_t source = 0;
    std::size_t index = 0;
    if (node_counter_ != nullptr) {
      NodeTaskCounter::Task taken;
      if (!node_counter_->next(taken, help_others)) return false;
      source = static_cast<std::size_t>(taken.list);
      index = taken.index;
    } else if (!local_->next(index)) {
      return false;
    }
    task.node_rank = sources_[source].node_rank;
    task.relation = static_cast<int>(index / chunks_);
    task.chunk = static_cast<unsigned>(index % chunks_);
    const std::span<const Tuple> fragment = sources_[source].fragments[task.relation];
    const std::size_t first = split_point(fragment.size(), chunks_, task.chunk);
    task.tuples = fragment.subspan(first, split_point(fragment.size(), chunks_, task.chunk + 1) - first);
    return true;
  }

 private:
  struct Source {
    int node_rank;
    std::span<const Tuple> fragments[2];
  };

  static bool shares_node(const Cluster& cluster, const Relation& relation) {
    const auto own = static_cast<std::size_t>(cluster.node_rank());
    return relation.node_fragments.size() == static_cast<std::size_t>(cluster.node_size()) &&
           relation.node_fragments[own].data() == relation.tuples.data() &&
           relation.node_fragments[own].size() == relation.tuples.size();
  }

  unsigned chunks_;
  NodeTaskCounter* node_counter_ = nullptr;
  std::vector<Source> sources_;
  std::optional<TaskCounter> local_;
};

}  // namespace hpcdb
