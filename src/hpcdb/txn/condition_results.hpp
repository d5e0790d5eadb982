#pragma once
// A workload's consistency conditions as each lock agent found them on its
// partitions, gathered and merged at one rank.
#include <mpi.h>

#include <vector>

#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb {

// Adds counts of conditions with the same name; keeps the first violation
// found (in rank order) and the order in which names first appear.
std::vector<ConditionResult> merge_conditions(const std::vector<std::vector<ConditionResult>>& parts);

// Collective: every rank's results, merged at `root` (empty elsewhere).
std::vector<ConditionResult> gather_conditions(MPI_Comm comm, int root, const std::vector<ConditionResult>& mine);

}  // namespace hpcdb
