#pragma once
// The TPC-C transactions of one transaction agent: the mix deck picks the
// type, a home warehouse is drawn from the agent's own, and the type's
// inputs are drawn (clause 2); no keying or think times, as in the thesis.
#include <vector>

#include "hpcdb/txn/tpcc/delivery.hpp"
#include "hpcdb/txn/tpcc/new_order.hpp"
#include "hpcdb/txn/tpcc/order_status.hpp"
#include "hpcdb/txn/tpcc/payment.hpp"
#include "hpcdb/txn/tpcc/stock_level.hpp"
#include "hpcdb/txn/tpcc/tpcc_mix.hpp"
#include "hpcdb/txn/txn_program.hpp"

namespace hpcdb::tpcc {

class TpccSource final : public TransactionSource {
 public:
  TpccSource(const TpccLayout& layout, InputRules rules, TpccMix mix, std::vector<int> homes);
  NextTransaction next(std::mt19937_64& rng) override;

 private:
  InputGenerator inputs_;
  TpccMixDeck deck_;
  std::vector<int> homes_;
  NewOrderProgram new_order_;
  PaymentProgram payment_;
  OrderStatusProgram order_status_;
  DeliveryProgram delivery_;
  StockLevelProgram stock_level_;
};

}  // namespace hpcdb::tpcc
