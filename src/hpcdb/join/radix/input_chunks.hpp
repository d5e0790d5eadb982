#pragma once
// The radix join's input cut into chunks, the unit of work of its histogram
// and network-partitioning passes: every rank's fragment of each relation is
// cut into the same number of nearly equal chunks. Each chunk's histogram and
// its exclusive write start per partition live in node-shared memory, so
// that when the fragments are node-shared too, any thread of any rank of the
// node can count or partition any chunk of the node.
#include <cstddef>
#include <cstdint>

#include "hpcdb/net/cluster.hpp"
#include "hpcdb/net/node_shared_arena.hpp"

namespace hpcdb {

class InputChunks {
 public:
  // input_chunks() (chunk_tasks.hpp), with as few chunks by default as keep
  // the tables within a few MiB at large fan-outs.
  static unsigned chunks_for(unsigned requested, std::uint64_t largest_relation, int ranks, unsigned threads,
                             std::size_t partitions);

  // Collective over the node.
  InputChunks(const Cluster& cluster, unsigned chunks, std::size_t partitions);

  unsigned chunks() const { return chunks_; }
  // Tuples per partition of chunk `chunk` of `relation` (0 inner, 1 outer)
  // of node rank `node_rank`'s fragment.
  std::uint64_t* counts(int node_rank, int relation, unsigned chunk) const { return table(node_rank, 0, relation, chunk); }
  // Where the chunk's tuples of each partition start in the partition's
  // region of its owner's window, relative to the region of the relation.
  std::uint64_t* starts(int node_rank, int relation, unsigned chunk) const { return table(node_rank, 1, relation, chunk); }

  // Bytes of node-shared memory per rank.
  static std::size_t bytes_for(unsigned chunks, std::size_t partitions) { return 4 * std::size_t{chunks} * partitions * 8; }

 private:
  std::uint64_t* table(int node_rank, int kind, int relation, unsigned chunk) const;

  unsigned chunks_;
  std::size_t partitions_;
  NodeSharedArena arena_;
};

}  // namespace hpcdb
