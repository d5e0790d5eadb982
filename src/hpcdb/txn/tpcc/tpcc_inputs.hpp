#pragma once
// The inputs of TPC-C's five transactions as a terminal draws them
// (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1), for a given home warehouse.
#include <array>
#include <cstdint>
#include <random>

#include "hpcdb/txn/tpcc/tpcc_random.hpp"
#include "hpcdb/txn/tpcc/tpcc_schema.hpp"

namespace hpcdb::tpcc {

struct NewOrderInput {
  struct Line {
    int i_id;
    int supply_w;
    int quantity;
  };
  int w = 0, d = 0, c = 0;
  int ol_cnt = 0;
  bool all_local = true;
  std::array<Line, kMaxLines> lines{};
  Date entry_d = 0;
};

struct PaymentInput {
  int w = 0, d = 0;
  int c_w = 0, c_d = 0;
  bool by_name = false;
  int c_id = 0;
  char c_last[16]{};
  Money amount = 0;
  Date date = 0;
};

struct OrderStatusInput {
  int w = 0, d = 0;
  bool by_name = false;
  int c_id = 0;
  char c_last[16]{};
};

struct DeliveryInput {
  int w = 0;
  int carrier = 0;
  Date date = 0;
};

struct StockLevelInput {
  int w = 0, d = 0;
  int threshold = 0;
};

// The probabilities TPC-C fixes (1% remote supply per item, 15% remote
// customer per payment) are settings, so that tests can raise them.
struct InputRules {
  int warehouses = 1;
  NurandConstants constants;
  double remote_item = 0.01;
  double remote_customer = 0.15;
};

class InputGenerator {
 public:
  explicit InputGenerator(InputRules rules) : rules_(rules) {}

  NewOrderInput new_order(std::mt19937_64& rng, int w, Date now) const;
  PaymentInput payment(std::mt19937_64& rng, int w, Date now) const;
  OrderStatusInput order_status(std::mt19937_64& rng, int w) const;
  DeliveryInput delivery(std::mt19937_64& rng, int w, Date now) const;
  StockLevelInput stock_level(std::mt19937_64& rng, int w) const;

 private:
  int other_warehouse(std::mt19937_64& rng, int w) const;
  bool chance(std::mt19937_64& rng, double p) const;

  InputRules rules_;
};

// Microseconds since the epoch, now.
Date now_date();

}  // namespace hpcdb::tpcc
