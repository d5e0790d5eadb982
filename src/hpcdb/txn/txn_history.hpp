#pragma once
// What committed transactions read and wrote, for checking after a run that
// the execution was serializable: each read names the version it saw (the
// writing transaction, 0 for the initial value), each write the version it
// replaced.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb {

struct RecordVersion {
  LockId record = 0;
  TxnId version = 0;
};

struct CommittedTxn {
  TxnId id = 0;
  std::vector<RecordVersion> reads;   // version seen
  std::vector<RecordVersion> writes;  // version overwritten
};

// Flat encoding for gathering over ranks.
void append_encoded(const CommittedTxn& txn, std::vector<std::uint64_t>& out);
std::vector<CommittedTxn> decode_history(const std::vector<std::uint64_t>& words);

// Gathers every rank's words at `root` (the result is empty elsewhere).
std::vector<std::uint64_t> gather_words(MPI_Comm comm, int root, const std::vector<std::uint64_t>& mine);

}  // namespace hpcdb
