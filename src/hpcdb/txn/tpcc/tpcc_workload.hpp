#pragma once
// TPC-C as a workload of the engine: one partition per warehouse
// (--warehouses, range-partitioned over the lock agents), laid out by
// tpcc_layout.hpp in the lock agent's node-shared memory, the item table in
// every lock agent's replica; loaded as the initial database, checked after
// the run (consistency conditions 1-12, the lock agents exchanging the
// payments made for customers of each other's warehouses), and its five transactions drawn by
// each transaction agent for its home warehouses.
#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/tpcc/tpcc_locks.hpp"
#include "hpcdb/txn/tpcc/tpcc_population.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

class TpccWorkload final : public WorkloadDefinition {
 public:
  // `warehouses`: 0 for one per lock agent; `order_capacity`: 0 to size the
  // append areas from the run (default_order_capacity). Throws UsageError.
  TpccWorkload(const TxnEngineConfig& config, int ranks);

  std::string name() const override { return "tpcc"; }
  std::vector<std::string> type_names() const override;
  std::uint32_t partitions(int lock_agents) const override;
  DataShape data_shape() const override;
  void load(DataStore& store, const LockSpace& space, int agent) const override;
  std::vector<std::uint64_t> facts_for_others(DataStore& store, const LockSpace& space, int agent) const override;
  std::vector<ConditionResult> check(DataStore& store, const LockSpace& space, int agent,
                                     std::span<const std::uint64_t> facts) const override;
  std::vector<RecordVersion> final_versions(DataStore& store, const LockSpace& space, int agent) const override;
  std::string record_name(LockId record) const override { return tpcc::record_name(record); }
  std::unique_ptr<TransactionSource> source(const SourceContext& context) const override;

  const TpccLayout& layout() const { return layout_; }

  // New orders per district a run may add: room for 500 per second and
  // district in timed runs (far above what one lock agent serves), or all of
  // the run's New-Orders landing in one warehouse in counted runs, plus 1,000.
  static std::uint64_t default_order_capacity(const TxnEngineConfig& config, int ranks);

 private:
  const TxnEngineConfig& config_;
  TpccLayout layout_;
  LoadSettings load_;
};

}  // namespace hpcdb::tpcc
