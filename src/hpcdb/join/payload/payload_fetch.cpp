#include "hpcdb/join/payload/payload_fetch.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <iterator>
#include <utility>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/collectives.hpp"

namespace hpcdb {
namespace {

int checked_count(std::uint64_t n) {
  if (n > INT_MAX) throw Error("payload splitting: more than 2^31 requests between two ranks; use more ranks");
  return static_cast<int>(n);
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> d(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) d[i] = d[i - 1] + counts[i - 1];
  return d;
}

// Asks the owners of `rids` for each tuple's key and payload; returns them
// in the order of `rids`, `width` + 8 bytes each.
std::vector<std::byte> fetch_side(const Cluster& cluster, const std::vector<std::uint64_t>& rids, const PayloadSide& side,
                                  FetchStats& stats) {
  const MPI_Comm world = cluster.world();
  const auto ranks = static_cast<std::size_t>(cluster.size());
  const std::size_t width = side.payloads->width, record = sizeof(std::uint64_t) + width;
  const std::vector<std::uint64_t> first_rid = allgather<std::uint64_t>(
      side.fragment->tuples.size() == 0 ? ~0ULL : side.fragment->tuples[0].rid, world);
  const std::vector<std::uint64_t> sizes = allgather<std::uint64_t>(side.fragment->tuples.size(), world);
  std::vector<std::pair<std::uint64_t, std::size_t>> starts;  // (first rid, rank) of ranks holding tuples
  for (std::size_t r = 0; r < ranks; ++r) {
    if (sizes[r] > 0) starts.emplace_back(first_rid[r], r);
  }
  std::sort(starts.begin(), starts.end());
  auto owner_of = [&](std::uint64_t rid) {
    auto it = std::upper_bound(starts.begin(), starts.end(), std::make_pair(rid, ranks));
    if (it != starts.begin()) {
      const std::size_t r = std::prev(it)->second;
      if (rid - first_rid[r] < sizes[r]) return r;
    }
    throw Error("payload splitting: no rank holds rid " + std::to_string(rid));
  };

  // Requests grouped by owner (counting sort), remembering each one's pair.
  std::vector<std::size_t> owner(rids.size());
  std::vector<std::uint64_t> per_owner(ranks, 0);
  for (std::size_t i = 0; i < rids.size(); ++i) ++per_owner[owner[i] = owner_of(rids[i])];
  std::vector<int> send_counts(ranks);
  for (std::size_t r = 0; r < ranks; ++r) send_counts[r] = checked_count(per_owner[r]);
  std::vector<int> send_at = displacements(send_counts);
  std::vector<std::size_t> slot(rids.size());
  std::vector<std::uint64_t> requests(rids.size());
  {
    std::vector<int> next = send_at;
    for (std::size_t i = 0; i < rids.size(); ++i) {
      slot[i] = static_cast<std::size_t>(next[owner[i]]++);
      requests[slot[i]] = rids[i];
    }
  }
  std::vector<int> receive_counts(ranks);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, world);
  const std::vector<int> receive_at = displacements(receive_counts);
  std::vector<std::uint64_t> asked(static_cast<std::size_t>(receive_at.back() + receive_counts.back()));
  MPI_Alltoallv(requests.data(), send_counts.data(), send_at.data(), MPI_UINT64_T, asked.data(), receive_counts.data(),
                receive_at.data(), MPI_UINT64_T, world);

  // Answers: key and payload of each asked rid, from this rank's fragment.
  const std::uint64_t my_first = first_rid[static_cast<std::size_t>(cluster.rank())];
  std::vector<std::byte> answers(asked.size() * record);
  for (std::size_t i = 0; i < asked.size(); ++i) {
    const std::uint64_t index = asked[i] - my_first;
    if (asked[i] < my_first || index >= side.fragment->tuples.size()) throw Error("payload splitting: a rid was asked of the wrong rank");
    std::memcpy(answers.data() + i * record, &side.fragment->tuples[index].key, sizeof(std::uint64_t));
    std::memcpy(answers.data() + i * record + sizeof(std::uint64_t), side.payloads->of(index).data(), width);
  }
  MPI_Datatype record_type;
  MPI_Type_contiguous(static_cast<int>(record), MPI_BYTE, &record_type);
  MPI_Type_commit(&record_type);
  std::vector<std::byte> answered(rids.size() * record);
  MPI_Alltoallv(answers.data(), receive_counts.data(), receive_at.data(), record_type, answered.data(), send_counts.data(),
                send_at.data(), record_type, world);
  MPI_Type_free(&record_type);
  const auto me = static_cast<std::size_t>(cluster.rank());
  for (std::size_t r = 0; r < ranks; ++r) {
    if (r == me) continue;
    stats.bytes_sent += static_cast<std::uint64_t>(send_counts[r]) * sizeof(std::uint64_t) +
                        static_cast<std::uint64_t>(receive_counts[r]) * record;
  }

  // Back into the order of the requests.
  std::vector<std::byte> in_order(rids.size() * record);
  for (std::size_t i = 0; i < rids.size(); ++i) {
    std::memcpy(in_order.data() + i * record, answered.data() + slot[i] * record, record);
  }
  return in_order;
}

}  // namespace

JoinedRows fetch_payloads(const Cluster& cluster, const std::vector<MatchPair>& pairs, const PayloadSide& inner,
                          const PayloadSide& outer, FetchStats& stats) {
  if (inner.payloads->width != outer.payloads->width) throw Error("payload splitting: both sides need one payload width");
  std::vector<std::uint64_t> rids(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) rids[i] = pairs[i].rid_r;
  const std::vector<std::byte> from_inner = fetch_side(cluster, rids, inner, stats);
  for (std::size_t i = 0; i < pairs.size(); ++i) rids[i] = pairs[i].rid_s;
  const std::vector<std::byte> from_outer = fetch_side(cluster, rids, outer, stats);

  JoinedRows rows;
  rows.payload_width = inner.payloads->width;
  const std::size_t w = rows.payload_width, record = sizeof(std::uint64_t) + w, row = rows.row_bytes();
  rows.bytes.resize(pairs.size() * row);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::byte* out = rows.bytes.data() + i * row;
    const std::byte* r = from_inner.data() + i * record;
    const std::byte* s = from_outer.data() + i * record;
    std::memcpy(out, &pairs[i].rid_r, 8);
    std::memcpy(out + 8, &pairs[i].rid_s, 8);
    std::memcpy(out + 16, r, 8);                // key of R
    std::memcpy(out + 24, s, 8);                // key of S
    std::memcpy(out + 32, r + 8, w);            // payload of R
    std::memcpy(out + 32 + w, s + 8, w);        // payload of S
  }
  return rows;
}

}  // namespace hpcdb
