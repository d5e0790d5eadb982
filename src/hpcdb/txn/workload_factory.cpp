#include "hpcdb/txn/workload_factory.hpp"

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/synthetic/synthetic_workload.hpp"
#include "hpcdb/txn/tpcc/tpcc_workload.hpp"
#include "hpcdb/txn/trace/trace_workload.hpp"

namespace hpcdb {

std::unique_ptr<WorkloadDefinition> make_workload(const TxnEngineConfig& config, int ranks) {
  switch (config.workload) {
    case WorkloadKind::synthetic:
      return std::make_unique<SyntheticWorkload>(config.locks_per_agent, config.locks_per_txn,
                                                 config.remote_probability, config.access_data);
    case WorkloadKind::tpcc:
      return std::make_unique<tpcc::TpccWorkload>(config, ranks);
    case WorkloadKind::trace:
      return std::make_unique<TraceWorkload>(config);
  }
  throw UsageError("unknown workload");
}

}  // namespace hpcdb
