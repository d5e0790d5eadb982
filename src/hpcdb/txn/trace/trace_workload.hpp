#pragma once
// The thesis's method (Sec. 5.4.1): replaying lock traces without data
// access. `--workload trace --trace-dir DIR` takes one partition per trace
// file (warehouse) of DIR; each transaction agent replays the files of its
// home warehouses in order, wrapping around at the end (agents that share a
// warehouse take turns: with k of them, each replays every k-th
// transaction), requesting every lock of a transaction in the order it was
// granted and dropping requests of locks it holds already in a covering mode
// (so a trace's upgrades become conversions, its repeats nothing). As the
// artifact did, transactions with 750 locks or more are skipped. A trace
// lock id names its warehouse (trace_lock_ids.hpp): the lock goes to the
// lock agent that owns that warehouse in this run.
#include <vector>

#include "hpcdb/txn/trace/lock_trace.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

class TraceWorkload final : public WorkloadDefinition {
 public:
  static constexpr std::size_t kMaxLocks = 750;

  // Throws UsageError for a missing or empty directory, or --check (a replay has no data).
  explicit TraceWorkload(const TxnEngineConfig& config);

  std::string name() const override { return "trace"; }
  std::vector<std::string> type_names() const override;
  std::uint32_t partitions(int) const override { return warehouses_; }
  DataShape data_shape() const override { return {}; }
  void load(DataStore&, const LockSpace&, int) const override {}
  std::vector<ConditionResult> check(DataStore&, const LockSpace&, int, std::span<const std::uint64_t>) const override {
    return {};
  }
  std::vector<RecordVersion> final_versions(DataStore&, const LockSpace&, int) const override { return {}; }
  std::unique_ptr<TransactionSource> source(const SourceContext& context) const override;

  // The type index of a trace's transaction name (neword, payment, ordstat,
  // delivery, slev; anything else is "other"), and back.
  static int type_of(const std::string& trace_name);
  static std::string trace_name_of(const std::string& type_name);

 private:
  std::string dir_;
  std::uint32_t warehouses_;
  std::uint64_t locks_per_warehouse_;
};

}  // namespace hpcdb
