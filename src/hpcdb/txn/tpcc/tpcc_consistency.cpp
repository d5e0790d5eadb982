#include "hpcdb/txn/tpcc/tpcc_consistency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/condition_results.hpp"
#include "hpcdb/txn/lock_space.hpp"
#include "hpcdb/txn/tpcc/tpcc_locks.hpp"

namespace hpcdb::tpcc {
namespace {

template <class Row>
const Row& row_at(const std::byte* base, std::uint64_t offset) {
  return *reinterpret_cast<const Row*>(base + offset);
}

constexpr int kConditions = 12;
constexpr std::int64_t kLoadedDelivered = kFirstNewOrder - 1;  // count(ORDER) - count(NEW-ORDER) at load: 2100

std::vector<ConditionResult> named_conditions() {
  std::vector<ConditionResult> c(kConditions);
  c[0].name = "1 (W_YTD = sum of D_YTD)";
  c[1].name = "2 (D_NEXT_O_ID - 1 = max O_ID = max NO_O_ID)";
  c[2].name = "3 (new orders = max NO_O_ID - min NO_O_ID + 1)";
  c[3].name = "4 (sum of O_OL_CNT = order lines)";
  c[4].name = "5 (O_CARRIER_ID null = a new order exists)";
  c[5].name = "6 (O_OL_CNT = the order's lines)";
  c[6].name = "7 (OL_DELIVERY_D null = the order's O_CARRIER_ID null)";
  c[7].name = "8 (W_YTD = sum of H_AMOUNT)";
  c[8].name = "9 (D_YTD = sum of H_AMOUNT)";
  c[9].name = "10 (C_BALANCE = delivered OL_AMOUNT - H_AMOUNT)";
  c[10].name = "11 (orders - new orders = 2100 + deliveries)";
  c[11].name = "12 (C_BALANCE + C_YTD_PAYMENT = delivered OL_AMOUNT)";
  return c;
}

void note(ConditionResult& c, bool holds, const std::string& violation) {
  ++c.checked;
  if (holds) return;
  if (c.violations++ == 0) c.first_violation = violation;
}

// Condition 3.3.2.k of the list.
ConditionResult& condition(std::vector<ConditionResult>& c, int k) { return c[static_cast<std::size_t>(k - 1)]; }

// Per customer (district-major, 0-based), amounts in cents.
using PerCustomer = std::vector<Money>;
std::size_t customer_slot(int d, int c) {
  return static_cast<std::size_t>(d - 1) * kCustomers + static_cast<std::size_t>(c - 1);
}

// The warehouse's history rows: H_AMOUNT summed over the rows of the
// warehouse (condition 8), per district (H_D_ID, condition 9) and per
// customer of this warehouse they paid for (10).
struct HistorySums {
  Money total = 0;
  std::array<Money, kDistricts> by_district{};
  PerCustomer by_customer = PerCustomer(static_cast<std::size_t>(kDistricts) * kCustomers);
};

HistorySums sum_history(const std::byte* partition, const TpccLayout& layout, int w,
                        std::span<const CustomerPayment> paid_elsewhere) {
  HistorySums s;
  for (int d = 1; d <= kDistricts; ++d) {
    for (std::uint64_t slot = 0; slot < layout.history_slots(); ++slot) {
      const History& h = row_at<History>(partition, layout.history(d, slot));
      if (h.h_w_id == w) {
        s.total += h.h_amount;
        if (h.h_d_id >= 1 && h.h_d_id <= kDistricts) s.by_district[static_cast<std::size_t>(h.h_d_id - 1)] += h.h_amount;
      }
      if (h.h_c_w_id == w && h.h_c_d_id >= 1 && h.h_c_d_id <= kDistricts && h.h_c_id >= 1 && h.h_c_id <= kCustomers) {
        s.by_customer[customer_slot(h.h_c_d_id, h.h_c_id)] += h.h_amount;
      }
    }
  }
  for (const CustomerPayment& p : paid_elsewhere) {
    if (p.w == w && p.d >= 1 && p.d <= kDistricts && p.c >= 1 && p.c <= kCustomers) {
      s.by_customer[customer_slot(p.d, p.c)] += p.amount;
    }
  }
  return s;
}

// What one district's order, new-order and order-line rows say, found by
// scanning every slot of its area.
struct DistrictScan {
  std::int64_t max_order = 0;
  std::uint64_t orders = 0;
  std::uint64_t order_lines_counted = 0;  // sum of O_OL_CNT
  std::uint64_t order_line_rows = 0;
  std::uint64_t new_orders = 0;
  std::int64_t min_new_order = 0;
  std::int64_t max_new_order = 0;
  std::string misplaced;  // an order row in another order's slot
  std::vector<std::uint32_t> lines_of;  // per o_id (slot), its order-line rows
};

const Order* order_of(const std::byte* partition, const TpccLayout& layout, int d, std::int64_t o_id) {
  if (o_id < 1 || static_cast<std::uint64_t>(o_id) > layout.order_slots()) return nullptr;
  const Order& order = row_at<Order>(partition, layout.order(d, static_cast<std::uint64_t>(o_id)));
  return order.o_id == o_id ? &order : nullptr;
}

// Orders and new orders (conditions 2-5), and each line against its order (7)
// and its customer's delivered amount (10, 12).
DistrictScan scan_district(const std::byte* partition, const TpccLayout& layout, int w, int d,
                           std::vector<ConditionResult>& c, PerCustomer& delivered) {
  DistrictScan s;
  s.lines_of.assign(layout.order_slots() + 1, 0);
  for (std::uint64_t o = 1; o <= layout.order_slots(); ++o) {
    const Order& order = row_at<Order>(partition, layout.order(d, o));
    const NewOrder& n = row_at<NewOrder>(partition, layout.new_order(d, o));
    if (order.o_id != 0) {
      if (static_cast<std::uint64_t>(order.o_id) != o && s.misplaced.empty()) {
        s.misplaced = fmt::format("order {} sits in the slot of order {}", order.o_id, o);
      }
      ++s.orders;
      s.max_order = std::max<std::int64_t>(s.max_order, order.o_id);
      s.order_lines_counted += static_cast<std::uint64_t>(order.o_ol_cnt);
      note(condition(c, 5), (order.o_carrier_id == 0) == (n.no_o_id != 0),
           fmt::format("warehouse {} district {} order {}: O_CARRIER_ID {} but {} new-order row", w, d, order.o_id,
                       order.o_carrier_id == 0 ? "null" : std::to_string(order.o_carrier_id),
                       n.no_o_id != 0 ? "a" : "no"));
    }
    if (n.no_o_id != 0) {
      s.min_new_order = s.new_orders == 0 ? n.no_o_id : std::min<std::int64_t>(s.min_new_order, n.no_o_id);
      s.max_new_order = std::max<std::int64_t>(s.max_new_order, n.no_o_id);
      ++s.new_orders;
    }
  }
  for (std::uint64_t slot = 0; slot < layout.line_slots(); ++slot) {
    const OrderLine& line = row_at<OrderLine>(partition, layout.order_line(d, slot));
    if (line.ol_o_id == 0) continue;
    ++s.order_line_rows;
    const Order* order = order_of(partition, layout, d, line.ol_o_id);
    if (order != nullptr) ++s.lines_of[static_cast<std::size_t>(line.ol_o_id)];
    // "null exactly when the order's O_CARRIER_ID is": a line without its order must be delivered.
    note(condition(c, 7), (line.ol_delivery_d == 0) == (order != nullptr && order->o_carrier_id == 0),
         fmt::format("warehouse {} district {} order {} line {}: OL_DELIVERY_D {}, but {}", w, d, line.ol_o_id,
                     line.ol_number, line.ol_delivery_d == 0 ? "null" : "set",
                     order == nullptr ? "the order is not there"
                                      : (order->o_carrier_id == 0 ? "O_CARRIER_ID is null" : "O_CARRIER_ID is set")));
    if (order != nullptr && line.ol_delivery_d != 0 && order->o_c_id >= 1 && order->o_c_id <= kCustomers) {
      delivered[customer_slot(d, order->o_c_id)] += line.ol_amount;
    }
  }
  return s;
}

// Conditions 2, 3, 4, 6 and 11 from the district's scan.
void check_district(const std::byte* partition, const TpccLayout& layout, int w, int d, const DistrictScan& s,
                    std::vector<ConditionResult>& c) {
  const District& district = row_at<District>(partition, layout.district(d));
  const std::int64_t next = district.d_next_o_id;
  note(condition(c, 2),
       s.misplaced.empty() && next - 1 == s.max_order && (s.new_orders == 0 || s.max_new_order == next - 1),
       fmt::format("warehouse {} district {}: D_NEXT_O_ID {}, max O_ID {}, max NO_O_ID {}{}", w, d, next, s.max_order,
                   s.new_orders == 0 ? "(none)" : std::to_string(s.max_new_order),
                   s.misplaced.empty() ? "" : "; " + s.misplaced));
  note(condition(c, 3), s.new_orders == 0 || static_cast<std::int64_t>(s.new_orders) == s.max_new_order - s.min_new_order + 1,
       fmt::format("warehouse {} district {}: {} new orders between {} and {}", w, d, s.new_orders, s.min_new_order,
                   s.max_new_order));
  note(condition(c, 4), s.order_lines_counted == s.order_line_rows,
       fmt::format("warehouse {} district {}: orders count {} lines, but there are {} order-line rows", w, d,
                   s.order_lines_counted, s.order_line_rows));
  for (std::uint64_t o = 1; o <= layout.order_slots(); ++o) {
    const Order& order = row_at<Order>(partition, layout.order(d, o));
    if (order.o_id == 0 || static_cast<std::uint64_t>(order.o_id) != o) continue;
    note(condition(c, 6), static_cast<std::uint32_t>(order.o_ol_cnt) == s.lines_of[o],
         fmt::format("warehouse {} district {} order {}: O_OL_CNT {}, but {} order-line rows", w, d, o, order.o_ol_cnt,
                     s.lines_of[o]));
  }
  std::int64_t deliveries = 0;
  for (int cust = 1; cust <= kCustomers; ++cust) deliveries += row_at<Customer>(partition, layout.customer(d, cust)).c_delivery_cnt;
  const auto difference = static_cast<std::int64_t>(s.orders) - static_cast<std::int64_t>(s.new_orders);
  note(condition(c, 11), difference == kLoadedDelivered + deliveries,
       fmt::format("warehouse {} district {}: {} orders - {} new orders = {}, but 2100 + {} deliveries (sum of "
                   "C_DELIVERY_CNT) = {}",
                   w, d, s.orders, s.new_orders, difference, deliveries, kLoadedDelivered + deliveries));
}

// Conditions 10 and 12 for every customer of the warehouse.
void check_customers(const std::byte* partition, const TpccLayout& layout, int w, const PerCustomer& delivered,
                     const PerCustomer& paid, std::vector<ConditionResult>& c) {
  for (int d = 1; d <= kDistricts; ++d) {
    for (int cust = 1; cust <= kCustomers; ++cust) {
      const Customer& r = row_at<Customer>(partition, layout.customer(d, cust));
      const Money lines = delivered[customer_slot(d, cust)];
      const Money payments = paid[customer_slot(d, cust)];
      note(condition(c, 10), r.c_balance == lines - payments,
           fmt::format("warehouse {} district {} customer {}: C_BALANCE {} cents, but delivered lines {} - payments {} "
                       "= {}",
                       w, d, cust, r.c_balance, lines, payments, lines - payments));
      note(condition(c, 12), r.c_balance + r.c_ytd_payment == lines,
           fmt::format("warehouse {} district {} customer {}: C_BALANCE {} + C_YTD_PAYMENT {} = {} cents, but its "
                       "delivered lines sum to {}",
                       w, d, cust, r.c_balance, r.c_ytd_payment, r.c_balance + r.c_ytd_payment, lines));
    }
  }
}

}  // namespace

std::vector<CustomerPayment> payments_to_other_warehouses(const std::byte* partition, const TpccLayout& layout, int w) {
  std::vector<CustomerPayment> out;
  for (int d = 1; d <= kDistricts; ++d) {
    for (std::uint64_t slot = 0; slot < layout.history_slots(); ++slot) {
      const History& h = row_at<History>(partition, layout.history(d, slot));
      if (h.h_c_w_id != 0 && h.h_c_w_id != w) out.push_back({h.h_c_w_id, h.h_c_d_id, h.h_c_id, h.h_amount});
    }
  }
  return out;
}

std::vector<ConditionResult> check_consistency(const std::byte* partition, const TpccLayout& layout, int w,
                                               std::span<const CustomerPayment> paid_elsewhere) {
  std::vector<ConditionResult> c = named_conditions();
  const HistorySums history = sum_history(partition, layout, w, paid_elsewhere);
  Money district_ytd = 0;
  for (int d = 1; d <= kDistricts; ++d) {
    const District& district = row_at<District>(partition, layout.district(d));
    district_ytd += district.d_ytd;
    note(condition(c, 9), district.d_ytd == history.by_district[static_cast<std::size_t>(d - 1)],
         fmt::format("warehouse {} district {}: D_YTD {} cents, but its history rows sum to {}", w, d, district.d_ytd,
                     history.by_district[static_cast<std::size_t>(d - 1)]));
  }
  const Money w_ytd = row_at<Warehouse>(partition, layout.warehouse()).w_ytd;
  note(condition(c, 1), w_ytd == district_ytd,
       fmt::format("warehouse {}: W_YTD {} cents, but its districts' D_YTD sum to {}", w, w_ytd, district_ytd));
  note(condition(c, 8), w_ytd == history.total,
       fmt::format("warehouse {}: W_YTD {} cents, but its history rows sum to {}", w, w_ytd, history.total));
  PerCustomer delivered(static_cast<std::size_t>(kDistricts) * kCustomers);
  for (int d = 1; d <= kDistricts; ++d) {
    const DistrictScan s = scan_district(partition, layout, w, d, c, delivered);
    check_district(partition, layout, w, d, s, c);
  }
  check_customers(partition, layout, w, delivered, history.by_customer, c);
  return c;
}

std::vector<ConditionResult> check_consistency(std::span<const std::byte* const> partitions, const TpccLayout& layout) {
  std::vector<CustomerPayment> remote;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    const auto mine = payments_to_other_warehouses(partitions[p], layout, static_cast<int>(p) + 1);
    remote.insert(remote.end(), mine.begin(), mine.end());
  }
  std::vector<std::vector<ConditionResult>> parts;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    parts.push_back(check_consistency(partitions[p], layout, static_cast<int>(p) + 1, remote));
  }
  return merge_conditions(parts);
}

void append_encoded(const CustomerPayment& p, std::vector<std::uint64_t>& out) {
  out.insert(out.end(), {static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.w)) << 32 |
                             static_cast<std::uint32_t>(p.d),
                         static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.c)), static_cast<std::uint64_t>(p.amount)});
}

std::vector<CustomerPayment> decode_payments(std::span<const std::uint64_t> words) {
  if (words.size() % 3 != 0) throw Error("truncated list of TPC-C payments");
  std::vector<CustomerPayment> out;
  for (std::size_t i = 0; i < words.size(); i += 3) {
    out.push_back({static_cast<std::int32_t>(words[i] >> 32), static_cast<std::int32_t>(words[i] & 0xFFFFFFFFu),
                   static_cast<std::int32_t>(words[i + 1]), static_cast<Money>(words[i + 2])});
  }
  return out;
}

std::vector<RecordVersion> written_rows(const std::byte* partition, const TpccLayout& layout, int w) {
  const auto p = static_cast<std::uint32_t>(w - 1);
  std::vector<RecordVersion> out;
  const auto add = [&](std::uint32_t table, std::uint64_t key, TxnId version) {
    if (version != 0) out.push_back({LockSpace::key_lock(table, p, key), version});
  };
  add(kWarehouseTable, 0, row_at<Warehouse>(partition, layout.warehouse()).version);
  for (int i = 1; i <= kItems; ++i) add(kStockTable, static_cast<std::uint64_t>(i), row_at<Stock>(partition, layout.stock(i)).version);
  for (int d = 1; d <= kDistricts; ++d) {
    add(kDistrictTable, district_key(d), row_at<District>(partition, layout.district(d)).version);
    for (int c = 1; c <= kCustomers; ++c) {
      add(kCustomerTable, customer_key(d, c), row_at<Customer>(partition, layout.customer(d, c)).version);
    }
    for (std::uint64_t o = 1; o <= layout.order_slots(); ++o) {
      add(kOrderTable, order_key(d, o), row_at<Order>(partition, layout.order(d, o)).version);
      add(kNewOrderTable, order_key(d, o), row_at<NewOrder>(partition, layout.new_order(d, o)).version);
    }
    for (std::uint64_t slot = 0; slot < layout.line_slots(); ++slot) {
      const OrderLine& l = row_at<OrderLine>(partition, layout.order_line(d, slot));
      add(kOrderLineTable, order_line_key(d, static_cast<std::uint64_t>(l.ol_o_id), l.ol_number), l.version);
    }
    for (std::uint64_t slot = 0; slot < layout.history_slots(); ++slot) {
      add(kHistoryTable, history_key(d, slot), row_at<History>(partition, layout.history(d, slot)).version);
    }
  }
  return out;
}

}  // namespace hpcdb::tpcc
