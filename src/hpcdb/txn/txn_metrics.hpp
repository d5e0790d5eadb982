#pragma once
// What the agents count and time during a run, summed over ranks at the end.
#include <mpi.h>

#include <cstdint>

#include "hpcdb/core/latency_histogram.hpp"

namespace hpcdb {

struct TxnCounters {
  std::uint64_t committed = 0;
  std::uint64_t aborted_by_lock = 0;   // a lock request was denied (timeout, no-wait, wait-die)
  std::uint64_t aborted_by_vote = 0;   // a participant voted no, or the vote timed out
  std::uint64_t lock_requests = 0;
  std::uint64_t locks_in_committed = 0;
  std::uint64_t agents_in_committed = 0;  // lock agents contacted, summed over committed transactions
  std::uint64_t votes = 0;                // transactions that ran 2PC
  std::uint64_t record_reads = 0;
  std::uint64_t record_writes = 0;
  std::uint64_t rollbacks = 0;            // lock agents: transactions whose undo images were restored
  std::uint64_t aborted() const { return aborted_by_lock + aborted_by_vote; }
};

struct TxnMetrics {
  TxnCounters counters;
  double seconds = 0;                 // the transaction agents' measured time (max over ranks once reduced)
  LatencyHistogram round_trip;        // lock request sent -> reply received, at the transaction agent
  LatencyHistogram queueing;          // time a request waited in a lock's queue, at the lock agent
  LatencyHistogram service;           // the lock agent's own work on a request
  LatencyHistogram vote;              // 2PC phase 1: vote requests sent -> all votes counted
  LatencyHistogram transaction;       // begin -> decision sent, committed transactions
  LatencyHistogram ping_local;        // transport round trip to a lock agent on the same node
  LatencyHistogram ping_remote;       // ... on another node
};

// Sums counters and histograms (and takes the max of `seconds`) at `root`.
TxnMetrics reduce_metrics(MPI_Comm comm, int root, const TxnMetrics& mine);

}  // namespace hpcdb
