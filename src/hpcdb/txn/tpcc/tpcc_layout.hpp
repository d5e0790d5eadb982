#pragma once
// Where each TPC-C row and index lives in a warehouse's partition and in a
// lock agent's replica (the item table), as byte offsets. Every rank
// computes the same layout from the order capacity, so a transaction agent
// finds any row without asking anyone.
//
// Partition: the warehouse row, its 10 districts, 30,000 customers and
// 100,000 stock rows at their keys' positions, then one area per district:
// its header (tails, new-order queue), orders, order index and new orders by
// o_id, order lines and history rows in append order, the latest order per
// customer and the last-name index. Orders are appended up to
// `order_slots()` per district (the initial 3,000 plus the capacity).
#include <cstdint>

#include "hpcdb/txn/tpcc/tpcc_indexes.hpp"
#include "hpcdb/txn/tpcc/tpcc_schema.hpp"

namespace hpcdb::tpcc {

class TpccLayout {
 public:
  // `order_capacity`: new orders each district can take beyond its initial 3,000.
  explicit TpccLayout(std::uint64_t order_capacity);

  std::uint64_t order_capacity() const { return order_capacity_; }
  std::uint64_t order_slots() const { return order_slots_; }
  std::uint64_t line_slots() const { return line_slots_; }
  std::uint64_t history_slots() const { return history_slots_; }
  std::uint64_t partition_bytes() const { return partition_bytes_; }
  std::uint64_t replica_bytes() const { return static_cast<std::uint64_t>(kItems) * sizeof(Item); }

  // Ids are TPC-C's (1-based); slots are 0-based.
  std::uint64_t warehouse() const { return 0; }
  std::uint64_t district(int d) const { return districts_ + static_cast<std::uint64_t>(d - 1) * sizeof(District); }
  std::uint64_t customer(int d, int c) const {
    return customers_ + (static_cast<std::uint64_t>(d - 1) * kCustomers + static_cast<std::uint64_t>(c - 1)) * sizeof(Customer);
  }
  std::uint64_t stock(int i) const { return stock_ + static_cast<std::uint64_t>(i - 1) * sizeof(Stock); }
  std::uint64_t area_header(int d) const { return area(d); }
  std::uint64_t order(int d, std::uint64_t o_id) const { return area(d) + orders_ + (o_id - 1) * sizeof(Order); }
  std::uint64_t first_line(int d, std::uint64_t o_id) const { return area(d) + first_lines_ + (o_id - 1) * 8; }
  std::uint64_t new_order(int d, std::uint64_t o_id) const { return area(d) + new_orders_ + (o_id - 1) * sizeof(NewOrder); }
  std::uint64_t order_line(int d, std::uint64_t slot) const { return area(d) + lines_ + slot * sizeof(OrderLine); }
  std::uint64_t history(int d, std::uint64_t slot) const { return area(d) + history_ + slot * sizeof(History); }
  std::uint64_t latest_order(int d, int c) const { return area(d) + latest_ + static_cast<std::uint64_t>(c - 1) * 8; }
  std::uint64_t name_bucket(int d, int b) const { return area(d) + buckets_ + static_cast<std::uint64_t>(b) * sizeof(NameBucket); }
  std::uint64_t name_entry(int d, int k) const { return area(d) + entries_ + static_cast<std::uint64_t>(k) * sizeof(NameEntry); }
  // In the replica.
  static std::uint64_t item(int i) { return static_cast<std::uint64_t>(i - 1) * sizeof(Item); }

 private:
  std::uint64_t area(int d) const { return areas_ + static_cast<std::uint64_t>(d - 1) * area_bytes_; }

  std::uint64_t order_capacity_;
  std::uint64_t order_slots_;
  std::uint64_t line_slots_;
  std::uint64_t history_slots_;
  // partition
  std::uint64_t districts_, customers_, stock_, areas_, area_bytes_, partition_bytes_;
  // district area
  std::uint64_t orders_, first_lines_, new_orders_, lines_, history_, latest_, buckets_, entries_;
};

}  // namespace hpcdb::tpcc
