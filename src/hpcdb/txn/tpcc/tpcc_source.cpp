#include "hpcdb/txn/tpcc/tpcc_source.hpp"

namespace hpcdb::tpcc {

TpccSource::TpccSource(const TpccLayout& layout, InputRules rules, TpccMix mix, std::vector<int> homes)
    : inputs_(rules),
      deck_(mix),
      homes_(std::move(homes)),
      new_order_(layout),
      payment_(layout),
      order_status_(layout),
      delivery_(layout),
      stock_level_(layout) {}

NextTransaction TpccSource::next(std::mt19937_64& rng) {
  const TxnType type = deck_.next(rng);
  const int w = homes_[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(homes_.size()) - 1))];
  NextTransaction next{type, static_cast<std::uint32_t>(w - 1), nullptr};
  switch (type) {
    case kNewOrder:
      new_order_.input = inputs_.new_order(rng, w, now_date());
      next.program = &new_order_;
      break;
    case kPayment:
      payment_.input = inputs_.payment(rng, w, now_date());
      next.program = &payment_;
      break;
    case kOrderStatus:
      order_status_.input = inputs_.order_status(rng, w);
      next.program = &order_status_;
      break;
    case kDelivery:
      delivery_.input = inputs_.delivery(rng, w, now_date());
      next.program = &delivery_;
      break;
    case kStockLevel:
      stock_level_.input = inputs_.stock_level(rng, w);
      next.program = &stock_level_;
      break;
  }
  return next;
}

}  // namespace hpcdb::tpcc
