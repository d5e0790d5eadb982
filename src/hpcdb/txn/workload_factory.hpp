#pragma once
// The workload a run asks for (--workload), built from the run's config.
#include <memory>

#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

// Throws UsageError for settings the workload cannot run with.
// `ranks`: the job's size (some workloads size their data by the run).
std::unique_ptr<WorkloadDefinition> make_workload(const TxnEngineConfig& config, int ranks);

}  // namespace hpcdb
