#include "hpcdb/txn/tpcc/order_status.hpp"

#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

namespace hpcdb::tpcc {

ProgramEnd OrderStatusProgram::run(Transaction& txn) {
  const OrderStatusInput& in = input;
  output = {};
  TpccRows db(txn, layout_);
  output.c_id = in.by_name ? db.customer_by_name(in.w, in.d, in.c_last) : in.c_id;

  // The latest order, read under its index entry's lock (New-Order holds it exclusively while it changes).
  const LockId entry = LockSpace::key_lock(kCustomerOrderIndex, static_cast<std::uint32_t>(in.w - 1),
                                           customer_key(in.d, output.c_id));
  const bool asked = lock_key(txn, kCustomerOrderIndex, static_cast<std::uint32_t>(in.w - 1),
                              customer_key(in.d, output.c_id), LockMode::S);
  const std::uint64_t o_id = db.word(db.latest_order(in.w, in.d, output.c_id));
  if (asked && !txn.serializable()) txn.unlock(entry);
  if (o_id != 0) {
    const Order order = db.read<Order>(db.order(in.w, in.d, o_id));
    const std::uint64_t first = db.word(db.first_line(in.w, in.d, o_id));  // fixed once the order committed
    for (int n = 1; n <= order.o_ol_cnt; ++n) {
      const auto line = db.read<OrderLine>(
          db.order_line(in.w, in.d, first + static_cast<std::uint64_t>(n - 1), o_id, n));
      output.amount += line.ol_amount;
    }
    output.o_id = order.o_id;
    output.carrier = order.o_carrier_id;
    output.lines = order.o_ol_cnt;
  }
  output.c_balance = db.read<Customer>(db.customer(in.w, in.d, output.c_id)).c_balance;
  return ProgramEnd::commit;
}

}  // namespace hpcdb::tpcc
