#include "hpcdb/txn/synthetic/synthetic_workload.hpp"

#include <cstring>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/synthetic/synthetic_transaction.hpp"

namespace hpcdb {

SyntheticWorkload::SyntheticWorkload(std::uint64_t locks_per_agent, int locks_per_txn, double remote_probability,
                                     bool access_data)
    : locks_per_agent_(locks_per_agent),
      locks_per_txn_(locks_per_txn),
      remote_probability_(remote_probability),
      access_data_(access_data) {
  if (locks_per_agent < 1) throw UsageError("--locks-per-agent must be at least 1");
  if (locks_per_agent > LockSpace::kMaxKey) {
    throw UsageError("--locks-per-agent must be at most " + std::to_string(LockSpace::kMaxKey));
  }
  if (locks_per_txn < 1) throw UsageError("--locks-per-txn must be at least 1");
  if (!(remote_probability >= 0 && remote_probability <= 1)) throw UsageError("--remote-prob must be between 0 and 1");
}

DataShape SyntheticWorkload::data_shape() const {
  if (!access_data_) return {};
  return {locks_per_agent_ * sizeof(SyntheticRecord), 0};
}

void SyntheticWorkload::load(DataStore& store, const LockSpace& space, int agent) const {
  for (std::uint32_t p = space.first_partition_of(agent); p < space.end_partition_of(agent); ++p) {
    std::memset(static_cast<void*>(store.local_partition(p)), 0, data_shape().partition_bytes);
  }
}

std::vector<RecordVersion> SyntheticWorkload::final_versions(DataStore& store, const LockSpace& space,
                                                             int agent) const {
  std::vector<RecordVersion> out;
  store.refresh_local_view();
  for (std::uint32_t p = space.first_partition_of(agent); p < space.end_partition_of(agent); ++p) {
    const auto* records = reinterpret_cast<const SyntheticRecord*>(store.local_partition(p));
    for (std::uint64_t k = 0; k < locks_per_agent_; ++k) {
      if (records[k].version != 0) out.push_back({LockSpace::key_lock(kTable, p, k), records[k].version});
    }
  }
  return out;
}

std::unique_ptr<TransactionSource> SyntheticWorkload::source(const SourceContext& context) const {
  return std::make_unique<SyntheticSource>(context, locks_per_agent_, locks_per_txn_, remote_probability_);
}

}  // namespace hpcdb
