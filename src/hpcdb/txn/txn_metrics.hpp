#pragma once
// What the agents count and time during a run, summed over ranks at the end.
#include <mpi.h>

#include <array>
#include <cstdint>

#include "hpcdb/core/latency_histogram.hpp"

namespace hpcdb {

constexpr int kMetricTypes = 8;  // transaction types a workload may name (kMaxTxnTypes)

struct TxnCounters {
  std::uint64_t committed = 0;
  std::uint64_t rolled_back = 0;        // ended by the program's own decision (TPC-C's unknown item): completed, not aborted
  std::uint64_t given_up = 0;           // transactions still aborted after every retry
  std::uint64_t aborted_by_timeout = 0; // a lock waited the bounded-wait timeout
  std::uint64_t aborted_by_no_wait = 0; // no-wait: a lock was not grantable at once
  std::uint64_t aborted_by_wait_die = 0;// wait-die: younger than a conflicting holder
  std::uint64_t aborted_by_vote = 0;    // a participant voted no, or the vote timed out
  std::uint64_t lock_requests = 0;
  std::uint64_t locks_in_committed = 0;     // lock requests of committed attempts
  std::uint64_t short_locks_in_committed = 0;  // of those, released before the end
  std::uint64_t agents_in_committed = 0;    // lock agents contacted, summed over committed attempts
  std::uint64_t votes = 0;                  // attempts that ran 2PC
  std::uint64_t record_reads = 0;
  std::uint64_t record_writes = 0;
  std::uint64_t rollbacks = 0;              // attempts whose writes were undone
  // Where the transaction agents' time went, summed over all attempts.
  std::uint64_t attempt_ns = 0;
  std::uint64_t locking_ns = 0;
  std::uint64_t vote_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint64_t backoff_ns = 0;

  std::uint64_t aborted_by_lock() const { return aborted_by_timeout + aborted_by_no_wait + aborted_by_wait_die; }
  std::uint64_t aborted() const { return aborted_by_lock() + aborted_by_vote; }
  std::uint64_t attempts() const { return committed + rolled_back + aborted(); }
};

// Per transaction type.
struct TypeCounters {
  std::uint64_t committed = 0;
  std::uint64_t rolled_back = 0;
  std::uint64_t aborted = 0;  // attempts
  std::uint64_t given_up = 0;
  std::uint64_t locks_in_committed = 0;
  std::uint64_t short_locks_in_committed = 0;
  std::uint64_t agents_in_committed = 0;
  std::uint64_t votes = 0;
};

struct TxnMetrics {
  TxnCounters counters;
  std::array<TypeCounters, kMetricTypes> types{};
  double seconds = 0;                 // the transaction agents' measured time (max over ranks once reduced)
  LatencyHistogram round_trip;        // lock request sent -> reply received, at the transaction agent
  LatencyHistogram queueing;          // time a request waited in a lock's queue, at the lock agent
  LatencyHistogram service;           // the lock agent's own work on a request
  LatencyHistogram vote;              // 2PC phase 1: vote requests sent -> all votes counted
  LatencyHistogram transaction;       // first attempt's start -> commit, committed transactions
  std::array<LatencyHistogram, kMetricTypes> type_latency;  // the same, per type
  LatencyHistogram ping_local;        // transport round trip to a lock agent on the same node
  LatencyHistogram ping_remote;       // ... on another node
};

// Sums counters and histograms (and takes the max of `seconds`) at `root`.
TxnMetrics reduce_metrics(MPI_Comm comm, int root, const TxnMetrics& mine);

}  // namespace hpcdb
