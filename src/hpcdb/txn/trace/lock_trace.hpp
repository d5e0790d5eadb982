#pragma once
// Lock traces in the format of the thesis's artifact: one file per warehouse,
// DIR/wh%06d.csv (wh000001.csv for warehouse 1), one line per granted lock,
//
//   trx_num,lock_id,mode,trx_name
//
// with the warehouse's transactions numbered from 1 in the order they
// committed, their locks in the order they were granted, the mode one of IS,
// IX, S, SIX, X, and the transaction's name (neword, payment, ordstat,
// delivery, slev for TPC-C's five). As in the artifact, lock ids are dense per
// warehouse: the locks of warehouse w (1-based) are (w - 1) * L ... w * L - 1,
// where L, the most locks any warehouse has, is the one number in
// DIR/max-locks-per-wh.meta. A lock's warehouse decides which lock agent owns
// it, whichever warehouse's file names it.
#include <cstdint>
#include <string>
#include <vector>

#include "hpcdb/txn/lock_mode.hpp"
#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb {

struct TracedLock {
  LockId lock;
  LockMode mode;
};

struct TraceTransaction {
  std::uint64_t number = 0;
  std::string name;
  std::vector<TracedLock> locks;
};

// DIR/wh000042.csv for warehouse 42.
std::string trace_file_name(const std::string& dir, std::uint32_t warehouse);

// DIR/max-locks-per-wh.meta: L, the lock ids per warehouse.
std::string locks_per_warehouse_file_name(const std::string& dir);
void write_locks_per_warehouse(const std::string& dir, std::uint64_t locks);
// Throws UsageError when the file is missing or holds no positive number.
std::uint64_t read_locks_per_warehouse(const std::string& dir);

// Writes one warehouse's file (complete or not at all); throws Error when it cannot.
void write_trace_file(const std::string& path, const std::vector<TraceTransaction>& transactions);

// Reads one warehouse's file; throws UsageError naming the file and line of
// anything that is not a trace line (a first line "trx_num,..." is a header).
std::vector<TraceTransaction> read_trace_file(const std::string& path);

// How many consecutive files wh000001.csv, wh000002.csv, ... DIR holds;
// throws UsageError when there are none, or when one is missing in between.
std::uint32_t count_trace_files(const std::string& dir);

}  // namespace hpcdb
