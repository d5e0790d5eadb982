#include "hpcdb/txn/txn_history.hpp"

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void append_encoded(const CommittedTxn& txn, std::vector<std::uint64_t>& out) {
  out.insert(out.end(), {txn.id, txn.reads.size(), txn.writes.size(), txn.range_reads.size()});
  for (const RecordVersion& r : txn.reads) out.insert(out.end(), {r.record, r.version});
  for (const RecordWrite& w : txn.writes) out.insert(out.end(), {w.record, w.version, static_cast<std::uint64_t>(w.kind)});
  for (const KeyRange& r : txn.range_reads) out.insert(out.end(), {r.first, r.last});
}

namespace {

// Reads words one by one, refusing to run past the end.
class WordReader {
 public:
  explicit WordReader(const std::vector<std::uint64_t>& words) : words_(words) {}
  bool done() const { return at_ >= words_.size(); }
  std::uint64_t take() {
    if (done()) throw Error("truncated transaction history");
    return words_[at_++];
  }

 private:
  const std::vector<std::uint64_t>& words_;
  std::size_t at_ = 0;
};

WriteKind write_kind(std::uint64_t word) {
  if (word > static_cast<std::uint64_t>(WriteKind::remove)) throw Error("transaction history: unknown kind of write");
  return static_cast<WriteKind>(word);
}

}  // namespace

std::vector<CommittedTxn> decode_history(const std::vector<std::uint64_t>& words) {
  std::vector<CommittedTxn> out;
  WordReader in(words);
  while (!in.done()) {
    CommittedTxn t;
    t.id = in.take();
    const std::uint64_t reads = in.take();
    const std::uint64_t writes = in.take();
    const std::uint64_t ranges = in.take();
    for (std::uint64_t k = 0; k < reads; ++k) t.reads.push_back({in.take(), in.take()});
    for (std::uint64_t k = 0; k < writes; ++k) {
      const LockId record = in.take();
      const TxnId version = in.take();
      t.writes.push_back({record, version, write_kind(in.take())});
    }
    for (std::uint64_t k = 0; k < ranges; ++k) t.range_reads.push_back({in.take(), in.take()});
    out.push_back(std::move(t));
  }
  return out;
}

void append_encoded(const ParticipantVote& vote, std::vector<std::uint64_t>& out) {
  out.insert(out.end(), {vote.txn, static_cast<std::uint64_t>(vote.agent),
                         (vote.voted_yes ? 1u : 0u) | (vote.told_to_commit ? 2u : 0u)});
}

std::vector<ParticipantVote> decode_votes(const std::vector<std::uint64_t>& words) {
  if (words.size() % 3 != 0) throw Error("truncated 2PC vote log");
  std::vector<ParticipantVote> out;
  for (std::size_t i = 0; i < words.size(); i += 3) {
    out.push_back({words[i], static_cast<int>(words[i + 1]), (words[i + 2] & 1) != 0, (words[i + 2] & 2) != 0});
  }
  return out;
}

namespace {

// Every rank's word count, with the displacements of a gather; throws when
// the total does not fit MPI's int counts.
struct GatherShape {
  std::vector<int> sizes, offsets;
  long long total = 0;
};

GatherShape gather_shape(MPI_Comm comm, std::size_t mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto count = static_cast<long long>(mine);
  std::vector<long long> counts(static_cast<std::size_t>(size));
  MPI_Allgather(&count, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, comm);  // every rank sees the same sizes
  GatherShape s;
  s.sizes.resize(counts.size());
  s.offsets.resize(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (s.total + counts[r] > (1ll << 31) - 1) throw Error("the recorded history is too large to gather; run shorter");
    s.sizes[r] = static_cast<int>(counts[r]);
    s.offsets[r] = static_cast<int>(s.total);
    s.total += counts[r];
  }
  return s;
}

}  // namespace

std::vector<std::uint64_t> gather_words(MPI_Comm comm, int root, const std::vector<std::uint64_t>& mine) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const GatherShape s = gather_shape(comm, mine.size());
  std::vector<std::uint64_t> all(rank == root ? static_cast<std::size_t>(s.total) : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(), s.sizes.data(), s.offsets.data(),
              MPI_UINT64_T, root, comm);
  return all;
}

std::vector<std::uint64_t> allgather_words(MPI_Comm comm, const std::vector<std::uint64_t>& mine) {
  const GatherShape s = gather_shape(comm, mine.size());
  std::vector<std::uint64_t> all(static_cast<std::size_t>(s.total));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(), s.sizes.data(),
                 s.offsets.data(), MPI_UINT64_T, comm);
  return all;
}

}  // namespace hpcdb
