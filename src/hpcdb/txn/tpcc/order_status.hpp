#pragma once
// TPC-C Order-Status (clause 2.6.2), read-only: finds the customer (by id, or
// by last name), its latest order through the orders-by-customer index, the
// order and its lines, then the customer's balance. The order is read before
// the customer, in the order Delivery locks them, so the two cannot deadlock.
#include <array>

#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

struct OrderStatusOutput {
  int c_id = 0;
  Money c_balance = 0;
  std::int64_t o_id = 0;  // 0: the customer has no order
  int carrier = 0;
  int lines = 0;
  Money amount = 0;  // of all lines
};

class OrderStatusProgram final : public TransactionProgram {
 public:
  explicit OrderStatusProgram(const TpccLayout& layout) : layout_(layout) {}
  OrderStatusInput input;
  OrderStatusOutput output;
  ProgramEnd run(Transaction& txn) override;

 private:
  const TpccLayout& layout_;
};

}  // namespace hpcdb::tpcc
