#include "hpcdb/txn/workload_factory.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/synthetic/synthetic_workload.hpp"

namespace hpcdb {

std::unique_ptr<WorkloadDefinition> make_workload(const TxnEngineConfig& config) {
  switch (config.workload) {
    case WorkloadKind::synthetic:
      return std::make_unique<SyntheticWorkload>(config.locks_per_agent, config.locks_per_txn,
                                                 config.remote_probability, config.access_data);
    case WorkloadKind::tpcc:
    case WorkloadKind::trace:
      break;
  }
  throw UsageError("workload " + to_string(config.workload) + " is not available");
}

}  // namespace hpcdb
