#pragma once
// The synthetic workload of the thesis (Sec. 5.4.1), as one workload among
// others: each lock agent owns one partition of `locks_per_agent` records
// (16 bytes: the version, i.e. the last writer, and a value), and record k of
// partition p is guarded by the lock (table 1, p, k). Its transactions are
// synthetic_transaction.hpp.
#include <cstdint>

#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

struct SyntheticRecord {
  TxnId version = 0;  // the transaction that wrote it last (0: initial)
  std::uint64_t value = 0;
};

class SyntheticWorkload final : public WorkloadDefinition {
 public:
  static constexpr std::uint32_t kTable = 1;

  // Throws UsageError for impossible settings.
  SyntheticWorkload(std::uint64_t locks_per_agent, int locks_per_txn, double remote_probability, bool access_data);

  std::string name() const override { return "synthetic"; }
  std::vector<std::string> type_names() const override { return {"synthetic"}; }
  std::uint32_t partitions(int lock_agents) const override { return static_cast<std::uint32_t>(lock_agents); }
  DataShape data_shape() const override;
  void load(DataStore& store, const LockSpace& space, int agent) const override;
  std::vector<ConditionResult> check(DataStore&, const LockSpace&, int, std::span<const std::uint64_t>) const override {
    return {};
  }
  std::vector<RecordVersion> final_versions(DataStore& store, const LockSpace& space, int agent) const override;
  std::unique_ptr<TransactionSource> source(const SourceContext& context) const override;

  static DataRef record(std::uint32_t partition, std::uint64_t key) { return {partition, key * sizeof(SyntheticRecord)}; }

 private:
  std::uint64_t locks_per_agent_;
  int locks_per_txn_;
  double remote_probability_;
  bool access_data_;
};

}  // namespace hpcdb
