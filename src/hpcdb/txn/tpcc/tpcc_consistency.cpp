#include "hpcdb/txn/tpcc/tpcc_consistency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "hpcdb/txn/lock_space.hpp"
#include "hpcdb/txn/tpcc/tpcc_locks.hpp"

namespace hpcdb::tpcc {
namespace {

template <class Row>
const Row& row_at(const std::byte* base, std::uint64_t offset) {
  return *reinterpret_cast<const Row*>(base + offset);
}

void note(ConditionResult& c, bool holds, const std::string& violation) {
  ++c.checked;
  if (holds) return;
  if (c.violations++ == 0) c.first_violation = violation;
}

// What the district's rows say, found by scanning every slot of its area.
struct DistrictScan {
  std::int64_t max_order = 0;
  std::uint64_t order_lines_counted = 0;  // sum of O_OL_CNT
  std::uint64_t order_line_rows = 0;
  std::uint64_t new_orders = 0;
  std::int64_t min_new_order = 0;
  std::int64_t max_new_order = 0;
  std::string misplaced;  // an order row in another order's slot
};

DistrictScan scan_district(const std::byte* partition, const TpccLayout& layout, int d) {
  DistrictScan s;
  for (std::uint64_t o = 1; o <= layout.order_slots(); ++o) {
    const Order& order = row_at<Order>(partition, layout.order(d, o));
    if (order.o_id != 0) {
      if (static_cast<std::uint64_t>(order.o_id) != o && s.misplaced.empty()) {
        s.misplaced = fmt::format("order {} sits in the slot of order {}", order.o_id, o);
      }
      s.max_order = std::max<std::int64_t>(s.max_order, order.o_id);
      s.order_lines_counted += static_cast<std::uint64_t>(order.o_ol_cnt);
    }
    const NewOrder& n = row_at<NewOrder>(partition, layout.new_order(d, o));
    if (n.no_o_id != 0) {
      s.min_new_order = s.new_orders == 0 ? n.no_o_id : std::min<std::int64_t>(s.min_new_order, n.no_o_id);
      s.max_new_order = std::max<std::int64_t>(s.max_new_order, n.no_o_id);
      ++s.new_orders;
    }
  }
  for (std::uint64_t slot = 0; slot < layout.line_slots(); ++slot) {
    if (row_at<OrderLine>(partition, layout.order_line(d, slot)).ol_o_id != 0) ++s.order_line_rows;
  }
  return s;
}

}  // namespace

std::vector<ConditionResult> check_consistency(const std::byte* partition, const TpccLayout& layout, int w) {
  std::vector<ConditionResult> c(4);
  c[0].name = "1 (W_YTD = sum of D_YTD)";
  c[1].name = "2 (D_NEXT_O_ID - 1 = max O_ID = max NO_O_ID)";
  c[2].name = "3 (new orders = max NO_O_ID - min NO_O_ID + 1)";
  c[3].name = "4 (sum of O_OL_CNT = order lines)";
  Money district_ytd = 0;
  for (int d = 1; d <= kDistricts; ++d) district_ytd += row_at<District>(partition, layout.district(d)).d_ytd;
  const Money w_ytd = row_at<Warehouse>(partition, layout.warehouse()).w_ytd;
  note(c[0], w_ytd == district_ytd,
       fmt::format("warehouse {}: W_YTD {} cents, but its districts' D_YTD sum to {}", w, w_ytd, district_ytd));
  for (int d = 1; d <= kDistricts; ++d) {
    const DistrictScan s = scan_district(partition, layout, d);
    const std::int64_t next = row_at<District>(partition, layout.district(d)).d_next_o_id;
    const bool two = s.misplaced.empty() && next - 1 == s.max_order && (s.new_orders == 0 || s.max_new_order == next - 1);
    note(c[1], two,
         fmt::format("warehouse {} district {}: D_NEXT_O_ID {}, max O_ID {}, max NO_O_ID {}{}", w, d, next, s.max_order,
                     s.new_orders == 0 ? "(none)" : std::to_string(s.max_new_order),
                     s.misplaced.empty() ? "" : "; " + s.misplaced));
    note(c[2], s.new_orders == 0 || static_cast<std::int64_t>(s.new_orders) == s.max_new_order - s.min_new_order + 1,
         fmt::format("warehouse {} district {}: {} new orders between {} and {}", w, d, s.new_orders, s.min_new_order,
                     s.max_new_order));
    note(c[3], s.order_lines_counted == s.order_line_rows,
         fmt::format("warehouse {} district {}: orders count {} lines, but there are {} order-line rows", w, d,
                     s.order_lines_counted, s.order_line_rows));
  }
  return c;
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
