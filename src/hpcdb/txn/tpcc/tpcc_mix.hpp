#pragma once
// Which TPC-C transaction comes next: a shuffled deck of cards, dealt to the
// end and shuffled again, so that every round of the deck has the exact mix
// (the card-deck method of clause 5.2.4.2): standard 45/43/4/4/4 (New-Order,
// Payment, Order-Status, Delivery, Stock-Level; 100 cards), the thesis's
// trace deck 10:10:1:1:1 (23 cards), or New-Order and Delivery 1:1 (two
// cards: concurrent Deliveries scan the same new-order queues while
// New-Orders refill them).
#include <random>
#include <vector>

#include "hpcdb/txn/txn_config.hpp"

namespace hpcdb::tpcc {

enum TxnType : int { kNewOrder = 0, kPayment = 1, kOrderStatus = 2, kDelivery = 3, kStockLevel = 4 };
constexpr int kTxnTypes = 5;

class TpccMixDeck {
 public:
  explicit TpccMixDeck(TpccMix mix);
  TxnType next(std::mt19937_64& rng);
  const std::vector<TxnType>& cards() const { return cards_; }

 private:
  std::vector<TxnType> cards_;
  std::size_t dealt_;
};

}  // namespace hpcdb::tpcc
