#pragma once
// TPC-C's consistency conditions 1-12 (clause 3.3.2.1-3.3.2.12), checked on
// one warehouse's partition by reading its rows (not its index words), so
// that a lost or doubled insert, update or delete shows:
//  1. W_YTD = sum of its districts' D_YTD;
//  2. per district, D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID);
//  3. per district, the new-order rows are the o_ids max - min + 1 down from max;
//  4. per district, sum(O_OL_CNT) = the number of order-line rows;
//  5. per order, O_CARRIER_ID is null exactly when a new-order row is there;
//  6. per order, O_OL_CNT = the number of its order-line rows;
//  7. per order line, OL_DELIVERY_D is null exactly when its order's
//     O_CARRIER_ID is (so a line without its order must be delivered);
//  8. W_YTD = the sum of H_AMOUNT of the history rows with H_W_ID = W_ID;
//  9. per district, D_YTD = the sum of H_AMOUNT of the history rows with
//     (H_W_ID, H_D_ID) = (D_W_ID, D_ID);
// 10. per customer, C_BALANCE = the sum of OL_AMOUNT of its delivered order
//     lines - the sum of H_AMOUNT of its payments (history rows of any
//     warehouse: a remote payment is recorded where it was made);
// 11. per district, count(ORDER) - count(NEW-ORDER) = 2100 at load. TPC-C
//     states it for the loaded database; each delivery deletes a new order
//     and adds 1 to its customer's C_DELIVERY_CNT (0 at load), so after a
//     run it is checked as 2100 + the sum of the district's C_DELIVERY_CNT;
// 12. per customer, C_BALANCE + C_YTD_PAYMENT = the sum of OL_AMOUNT of its
//     delivered order lines.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

// Payments to one customer recorded in a history row: its warehouse,
// district and id, and the amount.
struct CustomerPayment {
  std::int32_t w = 0;
  std::int32_t d = 0;
  std::int32_t c = 0;
  Money amount = 0;
};

// The payments recorded in warehouse `w`'s history rows for customers of other warehouses.
std::vector<CustomerPayment> payments_to_other_warehouses(const std::byte* partition, const TpccLayout& layout, int w);

// Checks warehouse `w`; `paid_elsewhere` holds the payments recorded in the
// other warehouses' history rows (those for customers of other warehouses are ignored).
std::vector<ConditionResult> check_consistency(const std::byte* partition, const TpccLayout& layout, int w,
                                               std::span<const CustomerPayment> paid_elsewhere);

// Every warehouse of a database held in one place: `partitions[w - 1]` is warehouse w's.
std::vector<ConditionResult> check_consistency(std::span<const std::byte* const> partitions, const TpccLayout& layout);

// Flat encoding, for exchanging payments between lock agents.
void append_encoded(const CustomerPayment& p, std::vector<std::uint64_t>& out);
std::vector<CustomerPayment> decode_payments(std::span<const std::uint64_t> words);

// Every row of the partition whose version is not 0, named by its lock (the
// history check's final state).
std::vector<RecordVersion> written_rows(const std::byte* partition, const TpccLayout& layout, int w);

}  // namespace hpcdb::tpcc
