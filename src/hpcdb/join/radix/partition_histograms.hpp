#pragma once
// The radix join's histogram phase: every input chunk is counted per
// network partition (into the node-shared chunk tables, so any rank of the
// node may partition any chunk later); this rank's counts are summed, and
// every rank's (MPI_Allreduce) give each partition's size. When the plan
// says so, the first local pass's digits are counted in the same read, per
// partition over all ranks, so that pass need not count them again.
#include <cstdint>
#include <vector>

#include "hpcdb/join/chunk_tasks.hpp"
#include "hpcdb/join/worker_runner.hpp"
#include "hpcdb/join/radix/input_chunks.hpp"
#include "hpcdb/join/radix/radix_plan.hpp"
#include "hpcdb/net/cluster.hpp"

namespace hpcdb {

struct PartitionHistograms {
  std::size_t partitions = 0;
  std::vector<std::uint64_t> rank_counts;    // this rank's tuples per partition, inner then outer
  std::vector<std::uint64_t> global_counts;  // every rank's, inner then outer
  // Every rank's tuples per partition and first-local-pass digit, inner then
  // outer, partition-major: [relation][p][digit] (empty: not counted).
  unsigned digit_bits = 0;
  std::vector<std::uint64_t> digit_counts;

  std::uint64_t inner(std::size_t p) const { return global_counts[p]; }
  std::uint64_t outer(std::size_t p) const { return global_counts[partitions + p]; }
  std::vector<std::uint64_t> inner_counts() const;
  std::vector<std::uint64_t> outer_counts() const;
  // Partition p's 2^digit_bits digit counts, or nullptr when not counted.
  const std::uint64_t* inner_digits(std::size_t p) const { return digits(0, p); }
  const std::uint64_t* outer_digits(std::size_t p) const { return digits(1, p); }

 private:
  const std::uint64_t* digits(std::size_t relation, std::size_t p) const {
    if (digit_counts.empty()) return nullptr;
    return digit_counts.data() + ((relation * partitions + p) << digit_bits);
  }
};

// Collective. Counts the chunks `tasks` hands out into `chunks`' tables.
// Throws when a tuple does not fit the plan's format (relations other than
// those the join was planned for).
PartitionHistograms count_partitions(const Cluster& cluster, WorkerRunner& workers, const RadixPlan& plan, ChunkTasks& tasks,
                                     const InputChunks& chunks);

}  // namespace hpcdb
