#include "hpcdb/txn/tpcc/delivery.hpp"

#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

namespace hpcdb::tpcc {
namespace {

// Locks the district's oldest new order and returns its o_id, or 0 when the
// queue is empty; reads the head again under each lock, since another
// Delivery may have taken it meanwhile.
std::uint64_t lock_oldest(TpccRows& db, const DeliveryInput& in, int d) {
  Transaction& txn = db.transaction();
  const DataRef head_word = db.header_word(in.w, d, &DistrictAreaHeader::new_order_head);
  const DataRef tail_word = db.header_word(in.w, d, &DistrictAreaHeader::new_order_tail);
  for (;;) {
    const std::uint64_t head = db.peek(head_word);
    if (head >= db.peek(tail_word)) {
      if (!txn.serializable()) return 0;
      db.lock(kNewOrderTable, in.w, order_supremum(d), LockMode::S);  // no New-Order may append until the end
      if (db.word(head_word) >= db.word(tail_word)) return 0;
      continue;
    }
    db.lock(kNewOrderTable, in.w, order_key(d, head), LockMode::X);
    if (db.word(head_word) != head) continue;  // delivered by someone else meanwhile
    if (txn.serializable()) {  // the deleted key's gap: the next key, held to the end
      const bool last = head + 1 >= db.word(tail_word);
      db.lock(kNewOrderTable, in.w, last ? order_supremum(d) : order_key(d, head + 1), LockMode::X);
    }
    return head;
  }
}

void deliver(TpccRows& db, const DeliveryInput& in, int d, std::uint64_t o_id) {
  const RowRef queued = db.new_order(in.w, d, o_id);
  NewOrder entry = db.read_for_update<NewOrder>(queued);
  entry.no_o_id = 0;  // deleted
  db.update(queued, entry);
  db.set_word(db.header_word(in.w, d, &DistrictAreaHeader::new_order_head), o_id + 1);

  const RowRef order_ref = db.order(in.w, d, o_id);
  Order order = db.read_for_update<Order>(order_ref);
  order.o_carrier_id = in.carrier;
  db.update(order_ref, order);
  const std::uint64_t first = db.word(db.first_line(in.w, d, o_id));
  Money amount = 0;
  for (int n = 1; n <= order.o_ol_cnt; ++n) {
    const RowRef line_ref = db.order_line(in.w, d, first + static_cast<std::uint64_t>(n - 1), o_id, n);
    OrderLine line = db.read_for_update<OrderLine>(line_ref);
    line.ol_delivery_d = in.date;
    db.update(line_ref, line);
    amount += line.ol_amount;
  }
  const RowRef customer_ref = db.customer(in.w, d, order.o_c_id);
  Customer customer = db.read_for_update<Customer>(customer_ref);
  customer.c_balance += amount;
  ++customer.c_delivery_cnt;
  db.update(customer_ref, customer);
}

}  // namespace

ProgramEnd DeliveryProgram::run(Transaction& txn) {
  output = {};
  TpccRows db(txn, layout_);
  for (int d = 1; d <= kDistricts; ++d) {
    const std::uint64_t o_id = lock_oldest(db, input, d);
    if (o_id == 0) {
      ++output.skipped;
      continue;
    }
    deliver(db, input, d, o_id);
    ++output.delivered;
  }
  return ProgramEnd::commit;
}

}  // namespace hpcdb::tpcc
