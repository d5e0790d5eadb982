#pragma once
// TPC-C Delivery (clause 2.7.4), for all 10 districts of the warehouse: takes
// the oldest new order (the head of the district's queue), deletes it, sets
// the order's carrier and its lines' delivery date, and credits the customer
// with the lines' amounts. A district without undelivered orders is skipped.
// Under serializable the scan for the oldest entry is protected from
// phantoms: the head is locked exclusively with the key after it (the next
// key, or the district's supremum), and an empty queue holds its supremum in
// S, which every New-Order appending there must pass.
#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

struct DeliveryOutput {
  int delivered = 0;  // districts with an order delivered
  int skipped = 0;    // districts without undelivered orders
};

class DeliveryProgram final : public TransactionProgram {
 public:
  explicit DeliveryProgram(const TpccLayout& layout) : layout_(layout) {}
  DeliveryInput input;
  DeliveryOutput output;
  ProgramEnd run(Transaction& txn) override;

 private:
  const TpccLayout& layout_;
};

}  // namespace hpcdb::tpcc
