#include "hpcdb/shuffle/shuffle_reference.hpp"

#include <fmt/format.h>
#include <mpi.h>

namespace hpcdb {

std::vector<RowDigest> expected_digests(const Cluster& cluster, RowSpan input, std::uint32_t row_bytes) {
  const auto ranks = static_cast<std::size_t>(cluster.size());
  // [destination][rows, checksum]
  std::vector<std::uint64_t> outgoing(2 * ranks, 0);
  const std::size_t words = row_bytes / 8;
  for (std::size_t i = 0; i < input.rows; ++i) {
    const auto* row = reinterpret_cast<const std::uint64_t*>(input.data + i * row_bytes);
    __extension__ typedef unsigned __int128 Wide;
    const Wide spread = static_cast<Wide>(row[0] * 0x9E3779B97F4A7C15ULL) * ranks;
    const auto dest = static_cast<std::size_t>(spread >> 64);
    outgoing[2 * dest] += 1;
    outgoing[2 * dest + 1] += row_hash(row, words);
  }
  std::vector<std::uint64_t> incoming(2 * ranks, 0);
  MPI_Alltoall(outgoing.data(), 2, MPI_UINT64_T, incoming.data(), 2, MPI_UINT64_T, cluster.world());
  std::vector<RowDigest> expected(ranks);
  for (std::size_t s = 0; s < ranks; ++s) expected[s] = {incoming[2 * s], incoming[2 * s + 1]};
  return expected;
}

std::string compare_with_expected(const DigestConsumer& consumer, const std::vector<RowDigest>& expected, int me) {
  const std::vector<RowDigest> got = consumer.received();
  const std::vector<unsigned> ends = consumer.ends();
  const std::vector<std::uint64_t> at_end = consumer.rows_at_end();
  for (std::size_t s = 0; s < expected.size(); ++s) {
    if (got[s].rows != expected[s].rows || got[s].checksum != expected[s].checksum) {
      return fmt::format("rank {} received {} rows (checksum {:#018x}) from rank {}, expected {} (checksum {:#018x})",
                         me, got[s].rows, got[s].checksum, s, expected[s].rows, expected[s].checksum);
    }
    if (ends[s] != 1) {
      return fmt::format("rank {} saw the end of rank {}'s stream {} times, expected once", me, s, ends[s]);
    }
    if (at_end[s] != got[s].rows) {
      return fmt::format("rank {} saw the end of rank {}'s stream after {} of its {} rows", me, s, at_end[s],
                         got[s].rows);
    }
  }
  return {};
}

}  // namespace hpcdb
