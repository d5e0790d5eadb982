#include "hpcdb/txn/tpcc/new_order.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

namespace hpcdb::tpcc {
namespace {

void lock_stock_in_order(TpccRows& db, const NewOrderInput& in) {
  std::array<std::pair<int, int>, kMaxLines> rows;
  for (int n = 0; n < in.ol_cnt; ++n) {
    const auto& line = in.lines[static_cast<std::size_t>(n)];
    rows[static_cast<std::size_t>(n)] = {line.supply_w, line.i_id};
  }
  std::sort(rows.begin(), rows.begin() + in.ol_cnt);
  for (int n = 0; n < in.ol_cnt; ++n) {
    const auto [w, i] = rows[static_cast<std::size_t>(n)];
    if (i <= kItems) db.lock(kStockTable, w, static_cast<std::uint64_t>(i), LockMode::X);
  }
}

[[noreturn]] void full(const char* what, int w, int d, std::uint64_t capacity) {
  throw Error("district " + std::to_string(d) + " of warehouse " + std::to_string(w) + " has no room for more " + what +
              " (" + std::to_string(capacity) + " orders): raise --order-capacity");
}

}  // namespace

// Inserts the order, its new-order entry and the customer's latest-order
// entry; returns the slot of its first order line.
std::uint64_t NewOrderProgram::insert_order(TpccRows& db, std::uint64_t o_id) {
  const NewOrderInput& in = input;
  const DataRef line_tail = db.header_word(in.w, in.d, &DistrictAreaHeader::order_line_tail);
  const std::uint64_t first_line = db.word(line_tail);  // the district's X lock guards the tails
  if (first_line + static_cast<std::uint64_t>(in.ol_cnt) > layout_.line_slots()) {
    full("order lines", in.w, in.d, layout_.order_capacity());
  }
  const auto id = static_cast<std::int32_t>(o_id);
  db.insert(db.order(in.w, in.d, o_id), Order{0, id, in.d, in.w, in.c, in.entry_d, 0, in.ol_cnt, in.all_local ? 1 : 0},
            order_supremum(in.d));
  db.set_word(db.first_line(in.w, in.d, o_id), first_line);
  db.insert(db.new_order(in.w, in.d, o_id), NewOrder{0, id, in.d, in.w}, order_supremum(in.d));
  db.set_word(db.header_word(in.w, in.d, &DistrictAreaHeader::new_order_tail), o_id + 1);
  db.lock(kCustomerOrderIndex, in.w, customer_key(in.d, in.c), LockMode::X);
  db.set_word(db.latest_order(in.w, in.d, in.c), o_id);
  return first_line;
}

// Updates the line's stock and inserts the order line; returns its amount.
Money NewOrderProgram::order_line(TpccRows& db, std::uint64_t o_id, std::uint64_t slot, int n, const Item& item) {
  const NewOrderInput& in = input;
  const auto& line = in.lines[static_cast<std::size_t>(n - 1)];
  const RowRef stock_ref = db.stock(line.supply_w, line.i_id);
  Stock stock = db.read_for_update<Stock>(stock_ref);
  stock.s_quantity = stock.s_quantity >= line.quantity + 10 ? stock.s_quantity - line.quantity
                                                            : stock.s_quantity - line.quantity + 91;
  stock.s_ytd += line.quantity;
  ++stock.s_order_cnt;
  if (line.supply_w != in.w) ++stock.s_remote_cnt;
  db.update(stock_ref, stock);

  OrderLine row{};
  row.ol_o_id = static_cast<std::int32_t>(o_id);
  row.ol_d_id = in.d;
  row.ol_w_id = in.w;
  row.ol_number = n;
  row.ol_i_id = line.i_id;
  row.ol_supply_w_id = line.supply_w;
  row.ol_quantity = line.quantity;
  row.ol_amount = line.quantity * item.i_price;
  std::copy(std::begin(stock.s_dist[in.d - 1]), std::end(stock.s_dist[in.d - 1]), row.ol_dist_info);
  db.insert(db.order_line(in.w, in.d, slot, o_id, n), row, order_line_supremum(in.d));
  return row.ol_amount;
}

ProgramEnd NewOrderProgram::run(Transaction& txn) {
  const NewOrderInput& in = input;
  output = {};
  TpccRows db(txn, layout_);
  const Warehouse warehouse = db.read<Warehouse>(db.warehouse(in.w));
  const RowRef district_ref = db.district(in.w, in.d);
  District district = db.read_for_update<District>(district_ref);
  const Customer customer = db.read<Customer>(db.customer(in.w, in.d, in.c));
  const auto o_id = static_cast<std::uint64_t>(district.d_next_o_id);
  if (o_id > layout_.order_slots()) full("orders", in.w, in.d, layout_.order_capacity());
  ++district.d_next_o_id;
  db.update(district_ref, district);
  lock_stock_in_order(db, in);
  const std::uint64_t first_line = insert_order(db, o_id);

  Money total = 0;
  for (int n = 1; n <= in.ol_cnt; ++n) {
    const int i_id = in.lines[static_cast<std::size_t>(n - 1)].i_id;
    if (i_id > kItems) {  // "Item number is not valid" (2.4.2.3): roll the whole order back
      if (txn.serializable()) db.lock(kItemTable, in.w, static_cast<std::uint64_t>(i_id), LockMode::S);
      output.rolled_back = true;
      return ProgramEnd::roll_back;
    }
    const Item item = db.read<Item>(db.item(in.w, i_id));
    total += order_line(db, o_id, first_line + static_cast<std::uint64_t>(n - 1), n, item);
  }
  db.set_word(db.header_word(in.w, in.d, &DistrictAreaHeader::order_line_tail),
              first_line + static_cast<std::uint64_t>(in.ol_cnt));
  // total * (1 - c_discount) * (1 + w_tax + d_tax), rates in ten-thousandths
  output.total = total * (10000 - customer.c_discount) / 10000 * (10000 + warehouse.w_tax + district.d_tax) / 10000;
  output.o_id = static_cast<std::int64_t>(o_id);
  return ProgramEnd::commit;
}

}  // namespace hpcdb::tpcc
