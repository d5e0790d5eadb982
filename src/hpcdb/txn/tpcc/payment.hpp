#pragma once
// TPC-C Payment (clause 2.5.2): adds the amount to the warehouse's and the
// district's year-to-date totals, charges the customer (found by id, or by
// last name: the middle one in first-name order), appends the customer's
// data for bad credit, and inserts a history row at the home district. The
// customer may belong to another warehouse (15%), possibly at another lock
// agent: then the commit runs 2PC.
#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

struct PaymentOutput {
  int c_id = 0;
  Money c_balance = 0;
};

class PaymentProgram final : public TransactionProgram {
 public:
  explicit PaymentProgram(const TpccLayout& layout) : layout_(layout) {}
  PaymentInput input;
  PaymentOutput output;
  ProgramEnd run(Transaction& txn) override;

 private:
  const TpccLayout& layout_;
};

}  // namespace hpcdb::tpcc
