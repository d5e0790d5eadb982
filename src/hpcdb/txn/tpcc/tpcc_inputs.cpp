#include "hpcdb/txn/tpcc/tpcc_inputs.hpp"

#include <chrono>

namespace hpcdb::tpcc {

Date now_date() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool InputGenerator::chance(std::mt19937_64& rng, double p) const {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53 < p;
}

// Uniform over the warehouses other than w (w itself when it is the only one).
int InputGenerator::other_warehouse(std::mt19937_64& rng, int w) const {
  if (rules_.warehouses == 1) return w;
  const int pick = static_cast<int>(uniform(rng, 1, rules_.warehouses - 1));
  return pick >= w ? pick + 1 : pick;
}

NewOrderInput InputGenerator::new_order(std::mt19937_64& rng, int w, Date now) const {
  NewOrderInput in;
  in.w = w;
  in.d = static_cast<int>(uniform(rng, 1, kDistricts));
  in.c = nurand(rng, 1023, 1, kCustomers, rules_.constants.c_id);
  in.ol_cnt = static_cast<int>(uniform(rng, kMinLines, kMaxLines));
  const bool roll_back = uniform(rng, 1, 100) == 1;  // 1%: the last item is unused (2.4.1.4)
  for (int n = 0; n < in.ol_cnt; ++n) {
    auto& line = in.lines[static_cast<std::size_t>(n)];
    line.i_id = nurand(rng, 8191, 1, kItems, rules_.constants.ol_i_id);
    line.supply_w = chance(rng, rules_.remote_item) ? other_warehouse(rng, w) : w;
    line.quantity = static_cast<int>(uniform(rng, 1, 10));
    in.all_local = in.all_local && line.supply_w == w;
  }
  if (roll_back) in.lines[static_cast<std::size_t>(in.ol_cnt - 1)].i_id = kItems + 1;
  in.entry_d = now;
  return in;
}

PaymentInput InputGenerator::payment(std::mt19937_64& rng, int w, Date now) const {
  PaymentInput in;
  in.w = w;
  in.d = static_cast<int>(uniform(rng, 1, kDistricts));
  if (chance(rng, rules_.remote_customer) && rules_.warehouses > 1) {  // 2.5.1.2
    in.c_w = other_warehouse(rng, w);
    in.c_d = static_cast<int>(uniform(rng, 1, kDistricts));
  } else {
    in.c_w = w;
    in.c_d = in.d;
  }
  in.by_name = uniform(rng, 1, 100) <= 60;
  if (in.by_name) {
    last_name(nurand(rng, 255, 0, 999, rules_.constants.c_last_run), in.c_last);
  } else {
    in.c_id = nurand(rng, 1023, 1, kCustomers, rules_.constants.c_id);
  }
  in.amount = uniform(rng, 100, 500'000);
  in.date = now;
  return in;
}

OrderStatusInput InputGenerator::order_status(std::mt19937_64& rng, int w) const {
  OrderStatusInput in;
  in.w = w;
  in.d = static_cast<int>(uniform(rng, 1, kDistricts));
  in.by_name = uniform(rng, 1, 100) <= 60;
  if (in.by_name) {
    last_name(nurand(rng, 255, 0, 999, rules_.constants.c_last_run), in.c_last);
  } else {
    in.c_id = nurand(rng, 1023, 1, kCustomers, rules_.constants.c_id);
  }
  return in;
}

DeliveryInput InputGenerator::delivery(std::mt19937_64& rng, int w, Date now) const {
  return {w, static_cast<int>(uniform(rng, 1, 10)), now};
}

StockLevelInput InputGenerator::stock_level(std::mt19937_64& rng, int w) const {
  StockLevelInput in;
  in.w = w;
  in.d = static_cast<int>(uniform(rng, 1, kDistricts));
  in.threshold = static_cast<int>(uniform(rng, 10, 20));
  return in;
}

}  // namespace hpcdb::tpcc
