#include "hpcdb/txn/txn_history.hpp"

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void append_encoded(const CommittedTxn& txn, std::vector<std::uint64_t>& out) {
  out.push_back(txn.id);
  out.push_back(txn.reads.size());
  out.push_back(txn.writes.size());
  for (const RecordVersion& r : txn.reads) out.insert(out.end(), {r.record, r.version});
  for (const RecordVersion& w : txn.writes) out.insert(out.end(), {w.record, w.version});
}

std::vector<CommittedTxn> decode_history(const std::vector<std::uint64_t>& words) {
  std::vector<CommittedTxn> out;
  std::size_t i = 0;
  auto take = [&] {
    if (i >= words.size()) throw Error("truncated transaction history");
    return words[i++];
  };
  while (i < words.size()) {
    CommittedTxn t;
    t.id = take();
    const std::uint64_t reads = take();
    const std::uint64_t writes = take();
    for (std::uint64_t k = 0; k < reads; ++k) t.reads.push_back({take(), take()});
    for (std::uint64_t k = 0; k < writes; ++k) t.writes.push_back({take(), take()});
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::uint64_t> gather_words(MPI_Comm comm, int root, const std::vector<std::uint64_t>& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto count = static_cast<long long>(mine.size());
  std::vector<long long> counts(static_cast<std::size_t>(size));
  MPI_Allgather(&count, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, comm);  // every rank sees the same sizes
  std::vector<int> sizes(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (total + counts[r] > (1ll << 31) - 1) throw Error("the recorded history is too large to gather; run shorter");
    sizes[r] = static_cast<int>(counts[r]);
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<std::uint64_t> all(rank == root ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(), sizes.data(), offsets.data(),
              MPI_UINT64_T, root, comm);
  return all;
}

}  // namespace hpcdb
