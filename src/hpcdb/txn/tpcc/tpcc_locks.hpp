#pragma once
// TPC-C's lock names: the table ids of the lock space (table 0 holds the
// hierarchy's database and table copies) and the key of every row and of the
// index ranges that need protection from phantoms under serializable:
//  - per district, the supremum of the order, new-order and order-line keys
//    (the "next key" after the last one, which appends lock for an instant
//    and scans that reach the end lock for good),
//  - the customer last-name index entry of one name,
//  - a customer's entry in the orders-by-customer index (its latest order),
//  - per district, the new-order queue's head, which Deliveries move.
#include <cstdint>
#include <string>

#include "hpcdb/txn/txn_ids.hpp"

namespace hpcdb::tpcc {

enum Table : std::uint32_t {
  kWarehouseTable = 1,
  kDistrictTable = 2,
  kCustomerTable = 3,
  kHistoryTable = 4,
  kNewOrderTable = 5,
  kOrderTable = 6,
  kOrderLineTable = 7,
  kItemTable = 8,
  kStockTable = 9,
  kCustomerNameIndex = 10,
  kCustomerOrderIndex = 11,
};

constexpr int kOrderIdBits = 24;  // o_ids per district below 2^24 - 1
constexpr std::uint64_t kOrderSupremum = (std::uint64_t{1} << kOrderIdBits) - 1;

constexpr std::uint64_t district_key(int d) { return static_cast<std::uint64_t>(d); }
constexpr std::uint64_t customer_key(int d, int c) {
  return static_cast<std::uint64_t>(d - 1) * 3000 + static_cast<std::uint64_t>(c - 1);
}
constexpr std::uint64_t order_key(int d, std::uint64_t o_id) {  // also new orders
  return (static_cast<std::uint64_t>(d) << kOrderIdBits) | o_id;
}
constexpr std::uint64_t order_supremum(int d) { return order_key(d, kOrderSupremum); }
// The district's new-order queue head (o_id 0, below every order): a
// Delivery holds it in X to its end, so that no other Delivery reads the
// head it moves before it commits or rolls back (under read committed too).
constexpr std::uint64_t new_order_queue_head(int d) { return order_key(d, 0); }
constexpr std::uint64_t order_line_key(int d, std::uint64_t o_id, int ol_number) {
  return (order_key(d, o_id) << 4) | static_cast<std::uint64_t>(ol_number);
}
constexpr std::uint64_t order_line_supremum(int d) { return order_line_key(d, kOrderSupremum, 15); }
constexpr std::uint64_t history_key(int d, std::uint64_t slot) { return (static_cast<std::uint64_t>(d) << 32) | slot; }
constexpr std::uint64_t name_key(int d, std::uint32_t name_hash) {
  return (static_cast<std::uint64_t>(d) << 32) | name_hash;
}

// A row's or an index entry's lock for a person: "new-order w1 d3 o2019",
// "order-line w1 d3 o2019 n4", "customer w2 d1 c42", ...
std::string record_name(LockId lock);

}  // namespace hpcdb::tpcc
