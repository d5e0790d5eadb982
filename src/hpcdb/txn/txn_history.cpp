#include "hpcdb/txn/txn_history.hpp"

#include "hpcdb/core/error.hpp"

namespace hpcdb {

void append_encoded(const CommittedTxn& txn, std::vector<std::uint64_t>& out) {
  out.insert(out.end(), {txn.id, txn.reads.size(), txn.writes.size(), txn.range_reads.size()});
  for (const RecordVersion& r : txn.reads) out.insert(out.end(), {r.record, r.version});
  for (const RecordWrite& w : txn.writes) out.insert(out.end(), {w.record, w.version, static_cast<std::uint64_t>(w.kind)});
  for (const LockRange& r : txn.range_reads) out.insert(out.end(), {r.first, r.last});
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

}  // namespace hpcdb
