#include "hpcdb/txn/tpcc/tpcc_mix.hpp"

#include <algorithm>
#include <array>

namespace hpcdb::tpcc {

TpccMixDeck::TpccMixDeck(TpccMix mix) {
  const std::array<int, kTxnTypes> standard{45, 43, 4, 4, 4};
  const std::array<int, kTxnTypes> trace{10, 10, 1, 1, 1};
  const std::array<int, kTxnTypes> delivery_heavy{1, 0, 0, 1, 0};
  const auto& counts = mix == TpccMix::standard ? standard : mix == TpccMix::trace ? trace : delivery_heavy;
  for (int t = 0; t < kTxnTypes; ++t) cards_.insert(cards_.end(), static_cast<std::size_t>(counts[static_cast<std::size_t>(t)]), static_cast<TxnType>(t));
  dealt_ = cards_.size();
}

TxnType TpccMixDeck::next(std::mt19937_64& rng) {
  if (dealt_ == cards_.size()) {
    std::shuffle(cards_.begin(), cards_.end(), rng);
    dealt_ = 0;
  }
  return cards_[dealt_++];
}

}  // namespace hpcdb::tpcc
