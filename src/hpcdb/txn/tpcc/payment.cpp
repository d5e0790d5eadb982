#include "hpcdb/txn/tpcc/payment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "hpcdb/core/error.hpp"
#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

namespace hpcdb::tpcc {
namespace {

// C_DATA for bad credit: the payment's ids and amount in front of the old
// data, cut to 500 characters (2.5.2.2).
void prepend_payment(Customer& c, const PaymentInput& in) {
  const std::string entry = fmt::format("{} {} {} {} {} {}.{:02}|", c.c_id, c.c_d_id, c.c_w_id, in.d, in.w,
                                        in.amount / 100, in.amount % 100);
  const std::string old(c.c_data, strnlen(c.c_data, sizeof c.c_data));
  const std::string data = (entry + old).substr(0, sizeof c.c_data);
  std::memset(c.c_data, 0, sizeof c.c_data);
  std::memcpy(c.c_data, data.data(), data.size());
}

// H_DATA: W_NAME, four spaces, D_NAME.
void history_data(char (&out)[24], const Warehouse& w, const District& d) {
  const std::string text = std::string(w.w_name, strnlen(w.w_name, sizeof w.w_name)) + "    " +
                           std::string(d.d_name, strnlen(d.d_name, sizeof d.d_name));
  std::memset(out, 0, sizeof out);
  std::memcpy(out, text.data(), std::min(text.size(), sizeof out));
}

}  // namespace

ProgramEnd PaymentProgram::run(Transaction& txn) {
  const PaymentInput& in = input;
  TpccRows db(txn, layout_);
  const RowRef warehouse_ref = db.warehouse(in.w);
  Warehouse warehouse = db.read_for_update<Warehouse>(warehouse_ref);
  warehouse.w_ytd += in.amount;
  db.update(warehouse_ref, warehouse);
  const RowRef district_ref = db.district(in.w, in.d);
  District district = db.read_for_update<District>(district_ref);
  district.d_ytd += in.amount;
  db.update(district_ref, district);

  const int c_id = in.by_name ? db.customer_by_name(in.c_w, in.c_d, in.c_last) : in.c_id;
  const RowRef customer_ref = db.customer(in.c_w, in.c_d, c_id);
  Customer customer = db.read_for_update<Customer>(customer_ref);
  customer.c_balance -= in.amount;
  customer.c_ytd_payment += in.amount;
  ++customer.c_payment_cnt;
  if (std::memcmp(customer.c_credit, "BC", 2) == 0) prepend_payment(customer, in);
  db.update(customer_ref, customer);

  const DataRef tail = db.header_word(in.w, in.d, &DistrictAreaHeader::history_tail);
  const std::uint64_t slot = db.word(tail);  // the district's X lock guards the tail
  if (slot >= layout_.history_slots()) {
    throw Error("district " + std::to_string(in.d) + " of warehouse " + std::to_string(in.w) +
                " has no room for more history rows: raise --order-capacity");
  }
  History history{};
  history.h_c_id = c_id;
  history.h_c_d_id = in.c_d;
  history.h_c_w_id = in.c_w;
  history.h_d_id = in.d;
  history.h_w_id = in.w;
  history.h_date = in.date;
  history.h_amount = in.amount;
  history_data(history.h_data, warehouse, district);
  db.insert(db.history(in.w, in.d, slot), history, 0);  // no one scans history
  db.set_word(tail, slot + 1);
  output = {c_id, customer.c_balance};
  return ProgramEnd::commit;
}

}  // namespace hpcdb::tpcc
