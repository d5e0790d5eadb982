#include "hpcdb/join/reference_join.hpp"

#include <algorithm>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

int destination_of(std::uint64_t key, int ranks) {
  std::uint64_t h = key ^ (key >> 31);
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 29;
  return static_cast<int>(h % static_cast<std::uint64_t>(ranks));
}

std::vector<Tuple> exchange_by_key(const Relation& relation, const Cluster& cluster, MPI_Datatype tuple_type) {
  const int ranks = cluster.size();
  std::vector<int> send_counts(static_cast<std::size_t>(ranks), 0);
  for (const Tuple& t : relation.tuples) ++send_counts[static_cast<std::size_t>(destination_of(t.key, ranks))];
  std::vector<int> send_offsets(static_cast<std::size_t>(ranks), 0);
  for (int r = 1; r < ranks; ++r) send_offsets[static_cast<std::size_t>(r)] = send_offsets[static_cast<std::size_t>(r - 1)] + send_counts[static_cast<std::size_t>(r - 1)];
  std::vector<Tuple> outgoing(relation.tuples.size());
  std::vector<int> cursor = send_offsets;
  for (const Tuple& t : relation.tuples) outgoing[static_cast<std::size_t>(cursor[static_cast<std::size_t>(destination_of(t.key, ranks))]++)] = t;

  std::vector<int> recv_counts(static_cast<std::size_t>(ranks), 0);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, cluster.world());
  std::vector<int> recv_offsets(static_cast<std::size_t>(ranks), 0);
  long long total = recv_counts[0];
  for (int r = 1; r < ranks; ++r) {
    recv_offsets[static_cast<std::size_t>(r)] = recv_offsets[static_cast<std::size_t>(r - 1)] + recv_counts[static_cast<std::size_t>(r - 1)];
    total += recv_counts[static_cast<std::size_t>(r)];
  }
  std::vector<Tuple> incoming(static_cast<std::size_t>(total));
  MPI_Alltoallv(outgoing.data(), send_counts.data(), send_offsets.data(), tuple_type, incoming.data(), recv_counts.data(),
                recv_offsets.data(), tuple_type, cluster.world());
  return incoming;
}

}  // namespace

JoinDigest reference_join(const Cluster& cluster, const Relation& inner, const Relation& outer) {
  const std::uint64_t limit = 1ULL << 31;
  if (inner.tuples.size() >= limit || outer.tuples.size() >= limit) {
    throw Error("the reference join handles at most 2^31 tuples per rank and relation");
  }
  MPI_Datatype tuple_type;
  MPI_Type_contiguous(static_cast<int>(sizeof(Tuple)), MPI_BYTE, &tuple_type);
  MPI_Type_commit(&tuple_type);
  std::vector<Tuple> r = exchange_by_key(inner, cluster, tuple_type);
  std::vector<Tuple> s = exchange_by_key(outer, cluster, tuple_type);
  MPI_Type_free(&tuple_type);

  auto by_key = [](const Tuple& a, const Tuple& b) { return a.key < b.key; };
  std::sort(r.begin(), r.end(), by_key);
  std::sort(s.begin(), s.end(), by_key);
  // For a key with a build tuples and b probe tuples, the a*b pairs add
  // a*b to the count and C*b*sum(rid_r) + a*sum(rid_s) to the checksum.
  JoinDigest digest;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < r.size() && j < s.size()) {
    if (r[i].key < s[j].key) {
      ++i;
    } else if (s[j].key < r[i].key) {
      ++j;
    } else {
      const std::uint64_t key = r[i].key;
      std::uint64_t a = 0, sum_r = 0, b = 0, sum_s = 0;
      for (; i < r.size() && r[i].key == key; ++i, ++a) sum_r += r[i].rid;
      for (; j < s.size() && s[j].key == key; ++j, ++b) sum_s += s[j].rid;
      digest.matches += a * b;
      digest.checksum += kChecksumMultiplier * b * sum_r + a * sum_s;
    }
  }
  digest.matches = allreduce(digest.matches, MPI_SUM, cluster.world());
  digest.checksum = allreduce(digest.checksum, MPI_SUM, cluster.world());
  return digest;
}

}  // namespace hpcdb
