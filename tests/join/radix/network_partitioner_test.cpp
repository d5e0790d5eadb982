#include "hpcdb/join/radix/network_partitioner.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hpcdb/kernels/tuple_format.hpp"

namespace hpcdb {
namespace {

constexpr std::uint64_t kGuard = 0xDEADBEEFDEADBEEFull;

// Input cut into chunks; every partition's region in `out` holds its tuples
// in input order (chunk after chunk), with guard slots between regions.
struct ChunkedInput {
  std::vector<Tuple> tuples;
  std::vector<std::size_t> chunk_start;             // chunks + 1 entries
  std::vector<std::vector<std::uint64_t>> counts;   // [chunk][partition]
  std::vector<std::size_t> region;                  // [partition] first slot
  std::size_t slots = 0;
};

ChunkedInput make_input(std::size_t n, std::size_t partitions, std::size_t chunks, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ChunkedInput in;
  for (std::size_t i = 0; i < n; ++i) in.tuples.push_back({rng() % (partitions * 1000), i});
  for (std::size_t c = 0; c <= chunks; ++c) in.chunk_start.push_back(n * c / chunks);
  in.counts.assign(chunks, std::vector<std::uint64_t>(partitions, 0));
  std::vector<std::uint64_t> total(partitions, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    for (std::size_t i = in.chunk_start[c]; i < in.chunk_start[c + 1]; ++i) {
      ++in.counts[c][in.tuples[i].key % partitions];
      ++total[in.tuples[i].key % partitions];
    }
  }
  std::size_t cursor = 3;  // regions start at arbitrary, unaligned slots
  for (std::size_t p = 0; p < partitions; ++p) {
    in.region.push_back(cursor);
    cursor += total[p] + 5;
  }
  in.slots = cursor;
  return in;
}

std::vector<std::uint64_t> expected_layout(const ChunkedInput& in, std::size_t partitions, CompressedFormat format) {
  std::vector<std::uint64_t> out(in.slots, kGuard);
  std::vector<std::size_t> cursor = in.region;
  for (const Tuple& t : in.tuples) out[cursor[t.key % partitions]++] = format.encode(t);
  return out;
}

class NetworkPartitionerSteps : public ::testing::TestWithParam<std::size_t> {};

// One pass continued chunk after chunk (extend) writes what one pass per
// chunk writes, and what the plain layout says.
TEST_P(NetworkPartitionerSteps, ContinuedPassEqualsOnePassPerChunk) {
  const std::size_t partitions = 64;
  const std::size_t chunks = GetParam();
  const ChunkedInput in = make_input(20000, partitions, chunks, 17 + chunks);
  const CompressedFormat format{6, 20};
  const std::vector<std::uint64_t> expected = expected_layout(in, partitions, format);
  NetworkPassStats stats;

  AlignedArray<std::uint64_t> per_chunk(in.slots);
  AlignedArray<std::uint64_t> continued(in.slots);
  std::fill(per_chunk.begin(), per_chunk.end(), kGuard);
  std::fill(continued.begin(), continued.end(), kGuard);
  NetworkPartitioner<CompressedFormat> partitioner(partitions, 64, 2, nullptr);
  std::vector<std::uint64_t> before(partitions, 0);  // tuples of earlier chunks, per partition
  std::vector<PartitionTarget<std::uint64_t>> targets(partitions);
  for (std::size_t c = 0; c < chunks; ++c) {
    for (std::size_t p = 0; p < partitions; ++p) targets[p].direct = per_chunk.data() + in.region[p] + before[p];
    const std::size_t first = in.chunk_start[c];
    partitioner.run(in.tuples.data() + first, in.chunk_start[c + 1] - first, format, targets, in.counts[c].data(), nullptr,
                    stats);
    for (std::size_t p = 0; p < partitions; ++p) before[p] += in.counts[c][p];
  }
  for (std::size_t p = 0; p < partitions; ++p) targets[p].direct = continued.data() + in.region[p];
  partitioner.start(targets, in.counts[0].data());
  for (std::size_t c = 0; c < chunks; ++c) {
    if (c > 0) partitioner.extend(in.counts[c].data());
    const std::size_t first = in.chunk_start[c];
    partitioner.push(in.tuples.data() + first, in.chunk_start[c + 1] - first, format, nullptr, stats);
  }
  partitioner.finish(nullptr, stats);

  EXPECT_EQ(std::vector<std::uint64_t>(per_chunk.begin(), per_chunk.end()), expected);
  EXPECT_EQ(std::vector<std::uint64_t>(continued.begin(), continued.end()), expected);
}

// 1 chunk; 7 chunks (some partitions empty in a chunk: 20000 / 7 / 64 is
// about 45 tuples each); 400 chunks (most partitions empty in most chunks).
INSTANTIATE_TEST_SUITE_P(Chunks, NetworkPartitionerSteps, ::testing::Values(1, 7, 400));

}  // namespace
}  // namespace hpcdb
