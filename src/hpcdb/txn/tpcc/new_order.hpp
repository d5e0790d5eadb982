#pragma once
// TPC-C New-Order (clause 2.4.2): reads the warehouse's tax, takes the
// district's next order id, reads the customer, inserts the order, its
// new-order entry and its lines, updating each line's stock at its supply
// warehouse; rolls back when an item is unknown (1% of them, by design).
// Stock rows are locked in (warehouse, item) order before the lines are
// processed, so that New-Orders on different districts cannot deadlock on them.
#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

class TpccRows;

struct NewOrderOutput {
  std::int64_t o_id = 0;
  Money total = 0;  // sum of amounts, with discount and taxes
  bool rolled_back = false;
};

class NewOrderProgram final : public TransactionProgram {
 public:
  explicit NewOrderProgram(const TpccLayout& layout) : layout_(layout) {}
  NewOrderInput input;
  NewOrderOutput output;
  ProgramEnd run(Transaction& txn) override;

 private:
  std::uint64_t insert_order(TpccRows& db, std::uint64_t o_id);
  Money order_line(TpccRows& db, std::uint64_t o_id, std::uint64_t slot, int n, const Item& item);

  const TpccLayout& layout_;
};

}  // namespace hpcdb::tpcc
