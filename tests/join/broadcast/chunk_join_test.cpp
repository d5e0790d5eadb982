// The broadcast join's per-chunk work run alone: chunks of S arriving in any
// order and of any size, each sorted as a copy and joined through R's key
// directory, give a hash join's matches, and the arrived chunk is left as it
// came (it may still be on its way to the next rank).
#include "hpcdb/join/broadcast/chunk_join.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "join/phase_test_support.hpp"

namespace hpcdb {
namespace {

template <class Format>
void check_chunks(const Format& format, std::size_t chunk_tuples) {
  using Stored = typename Format::Stored;
  const PhaseCase c = random_phase_case(3000, 7000, 2000, 31);
  const MatchCollector expected = reference_matches(c);
  std::vector<Stored> r(c.r.size()), scratch(std::max(c.r.size(), c.s.size()));
  encode_sorted(format, std::span<const Tuple>(c.r), r.data(), scratch.data());
  const KeyDirectory<Format> directory(format, r.data(), r.size());
  std::vector<Stored> s(c.s.size()), values(chunk_tuples);
  encode_into(format, std::span<const Tuple>(c.s), s.data());
  const std::vector<Stored> arrived = s;
  MatchCollector matches;
  for (std::size_t first = 0; first < s.size(); first += chunk_tuples) {
    const std::size_t n = std::min(chunk_tuples, s.size() - first);
    const std::span<const std::byte> chunk(reinterpret_cast<const std::byte*>(s.data() + first), n * sizeof(Stored));
    join_chunk(directory, chunk, values.data(), scratch.data(), 256, matches, [] {});
  }
  EXPECT_EQ(matches.count, expected.count);
  EXPECT_EQ(matches.checksum, expected.checksum);
  EXPECT_TRUE(std::equal(s.begin(), s.end(), arrived.begin(), [](const Stored& a, const Stored& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
  })) << "a chunk was changed in place";
}

TEST(ChunkJoin, ChunksOfAnySizeJoinLikeAHashJoin) {
  for (std::size_t chunk : {1u, 97u, 1024u, 7000u}) {
    check_chunks(WideTupleFormat{}, chunk);
    check_chunks(OffsetCompressedFormat{0, 17}, chunk);
  }
}

TEST(ChunkJoin, AnEmptyChunkJoinsNothing) {
  std::vector<std::uint64_t> r = {1, 2, 3};
  const OffsetCompressedFormat format{0, 17};
  const KeyDirectory<OffsetCompressedFormat> directory(format, r.data(), r.size());
  MatchCollector matches;
  join_chunk(directory, std::span<const std::byte>(), r.data(), r.data(), 256, matches, [] {});
  EXPECT_EQ(matches.count, 0u);
}

}  // namespace
}  // namespace hpcdb
