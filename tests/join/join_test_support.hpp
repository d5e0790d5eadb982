#pragma once
// Helpers of the distributed join tests: every rank builds the same global
// relations, takes its own slice, and checks the distributed result against
// a serial hash-map join over the global relations.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "hpcdb/core/worker_team.hpp"
#include "hpcdb/data/node_shared_relation.hpp"
#include "hpcdb/data/relation.hpp"
#include "hpcdb/kernels/tuple.hpp"
#include "net/test_cluster.hpp"

namespace hpcdb::testing {

struct GlobalInput {
  std::vector<Tuple> inner;
  std::vector<Tuple> outer;
};

// This rank's slice in its own private memory.
inline Relation private_slice_for_this_rank(const std::vector<Tuple>& global) {
  const Cluster& c = cluster();
  const auto ranks = static_cast<std::size_t>(c.size());
  const auto rank = static_cast<std::size_t>(c.rank());
  const std::size_t first = split_point(global.size(), ranks, rank);
  const std::size_t last = split_point(global.size(), ranks, rank + 1);
  Relation r;
  r.tuples = AlignedArray<Tuple>(last - first);
  std::copy(global.begin() + static_cast<std::ptrdiff_t>(first), global.begin() + static_cast<std::ptrdiff_t>(last), r.tuples.data());
  r.global_size = global.size();
  return r;
}

// Collective. This rank's slice in node-shared memory, as the engine's data
// sources place it (co-located ranks may share the work on it).
inline Relation slice_for_this_rank(const std::vector<Tuple>& global) {
  return share_on_node(cluster(), private_slice_for_this_rank(global));
}

struct Expected {
  std::uint64_t matches = 0;
  std::uint64_t checksum = 0;
  std::vector<MatchPair> pairs;  // sorted
};

inline Expected serial_join(const GlobalInput& input) {
  std::unordered_multimap<std::uint64_t, std::uint64_t> table;
  for (const Tuple& t : input.inner) table.emplace(t.key, t.rid);
  Expected e;
  for (const Tuple& s : input.outer) {
    auto [begin, end] = table.equal_range(s.key);
    for (auto it = begin; it != end; ++it) {
      e.pairs.push_back({it->second, s.rid});
      ++e.matches;
      e.checksum += pair_checksum(it->second, s.rid);
    }
  }
  std::sort(e.pairs.begin(), e.pairs.end());
  return e;
}

// Every rank's pairs, concatenated and sorted, on every rank.
inline std::vector<MatchPair> gather_pairs(const std::vector<MatchPair>& mine) {
  const Cluster& c = cluster();
  const int bytes = static_cast<int>(mine.size() * sizeof(MatchPair));
  std::vector<int> counts(static_cast<std::size_t>(c.size()));
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, c.world());
  std::vector<int> offsets(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
  std::vector<MatchPair> all(static_cast<std::size_t>(offsets.back() + counts.back()) / sizeof(MatchPair));
  MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, c.world());
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace hpcdb::testing
