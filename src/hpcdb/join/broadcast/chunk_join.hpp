#pragma once
// The broadcast join's work per arriving chunk, on this rank's memory only:
// the chunk (which may still be on its way on to the next rank, so it is
// left as it is) copied into `values`, sorted there, and joined with R_i
// through R_i's key directory in blocks, progress() between blocks. A
// function of explicit inputs, so that a test can run it alone.
#include <cstddef>
#include <span>

#include "hpcdb/join/key_directory.hpp"
#include "hpcdb/join/sorted_values.hpp"
#include "hpcdb/kernels/match_collector.hpp"

namespace hpcdb {

template <class Format, class Progress>
void join_chunk(const KeyDirectory<Format>& directory, std::span<const std::byte> chunk,
                typename Format::Stored* values, typename Format::Stored* scratch, std::size_t block,
                MatchCollector& matches, Progress&& progress) {
  using Stored = typename Format::Stored;
  const std::size_t n = chunk.size() / sizeof(Stored);
  if (n == 0) return;
  copy_sorted_by_key(reinterpret_cast<const Stored*>(chunk.data()), n, values, scratch);
  directory.join_in_blocks(values, n, block, matches, progress);
}

}  // namespace hpcdb
