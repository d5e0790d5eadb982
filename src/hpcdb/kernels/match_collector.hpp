#pragma once
// Where a join's matches go: always counted and checksummed, and, when asked,
// kept as <rid_r, rid_s> pairs.
#include <cstdint>
#include <vector>

#include "hpcdb/kernels/tuple.hpp"

namespace hpcdb {

// Cache-line aligned: workers keep theirs side by side in a vector and
// update them (pairs.push_back) in their inner loops.
struct alignas(64) MatchCollector {
  std::uint64_t count = 0;
  std::uint64_t checksum = 0;  // see pair_checksum()
  bool keep_pairs = false;
  std::vector<MatchPair> pairs;

  void merge(MatchCollector&& other) {
    count += other.count;
    checksum += other.checksum;
    if (pairs.empty()) pairs = std::move(other.pairs);
    else pairs.insert(pairs.end(), other.pairs.begin(), other.pairs.end());
  }
};

}  // namespace hpcdb
