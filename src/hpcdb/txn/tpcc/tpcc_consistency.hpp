#pragma once
// TPC-C's consistency conditions 1-4 (clause 3.3.2.1-3.3.2.4), checked on one
// warehouse's partition by reading its rows (not its index words), so that a
// lost or doubled insert, update or delete shows:
//  1. W_YTD = sum of its districts' D_YTD;
//  2. per district, D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID);
//  3. per district, the new-order rows are the o_ids max - min + 1 down from max;
//  4. per district, sum(O_OL_CNT) = the number of order-line rows.
#include <cstddef>
#include <vector>

#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

std::vector<ConditionResult> check_consistency(const std::byte* partition, const TpccLayout& layout, int w);

// Every row of the partition whose version is not 0, named by its lock (the
// history check's final state).
std::vector<RecordVersion> written_rows(const std::byte* partition, const TpccLayout& layout, int w);

}  // namespace hpcdb::tpcc
