#pragma once
// --trace-out DIR: the committed transactions' granted locks, gathered from
// every transaction agent and written by rank 0 as one lock trace file per
// warehouse (lock_trace.hpp), numbered per warehouse in commit order of each
// agent, agent after agent, with the artifact's lock ids (trace_lock_ids.hpp)
// and their count per warehouse in max-locks-per-wh.meta.
#include <mpi.h>

#include <string>
#include <vector>

#include "hpcdb/txn/transaction_agent.hpp"

namespace hpcdb {

// Collective. `type_names` names the workload's types; files for all
// `partitions` warehouses are written (empty ones too). Throws Error at rank 0
// when a file cannot be written.
void write_lock_traces(MPI_Comm comm, const std::string& dir, std::uint32_t partitions,
                       const std::vector<std::string>& type_names, const std::vector<TracedTransaction>& mine);

}  // namespace hpcdb
