#include "hpcdb/txn/tpcc/delivery.hpp"

#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

namespace hpcdb::tpcc {
namespace {

// Locks the district's queue head and its oldest new order and returns its
// o_id, or 0 when the queue is empty; reads the head again under the order's
// lock, since the New-Order that queued it may have rolled back. For the history check it is a range read of the district's
// new orders up to the oldest (all of them when there is none).
std::uint64_t lock_oldest(TpccRows& db, const DeliveryInput& in, int d) {
  Transaction& txn = db.transaction();
  const DataRef head_word = db.header_word(in.w, d, &DistrictAreaHeader::new_order_head);
  const DataRef tail_word = db.header_word(in.w, d, &DistrictAreaHeader::new_order_tail);
  // Without it, a Delivery could take the head another one moved and then rolled back: the order twice.
  if (txn.key_range_locking()) db.lock(kNewOrderTable, in.w, new_order_queue_head(d), LockMode::X);
  for (;;) {
    const std::uint64_t head = db.peek(head_word);
    if (head >= db.peek(tail_word)) {
      // No New-Order may append until the end: the supremum, held in S.
      if (txn.next_key_locking()) db.lock(kNewOrderTable, in.w, order_supremum(d), LockMode::S);
      if (txn.next_key_locking() && db.word(head_word) < db.word(tail_word)) continue;
      db.note_range_read(kNewOrderTable, in.w, order_key(d, 1), order_supremum(d));
      return 0;
    }
    db.lock(kNewOrderTable, in.w, order_key(d, head), LockMode::X);
    if (db.word(head_word) != head || head >= db.word(tail_word)) continue;  // taken meanwhile, or rolled back
    if (txn.next_key_locking()) {  // the deleted key's gap: the next key, held to the end
      const bool last = head + 1 >= db.word(tail_word);
      db.lock(kNewOrderTable, in.w, last ? order_supremum(d) : order_key(d, head + 1), LockMode::X);
    }
    db.note_range_read(kNewOrderTable, in.w, order_key(d, 1), order_key(d, head));
    return head;
  }
}

// Delivers the queued order `o_id`; returns false, leaving the district as
// it is, when the order is not there (the database is corrupt: a run with a
// testing fault; the checks report it).
bool deliver(TpccRows& db, const DeliveryInput& in, int d, std::uint64_t o_id) {
  const RowRef queued = db.new_order(in.w, d, o_id);
  NewOrder entry = db.read_for_update<NewOrder>(queued);
  const RowRef order_ref = db.order(in.w, d, o_id);
  Order order = db.read_for_update<Order>(order_ref);
  if (static_cast<std::uint64_t>(order.o_id) != o_id || order.o_c_id < 1 || order.o_c_id > kCustomers) return false;
  entry.no_o_id = 0;  // deleted
  db.remove(queued, entry);
  db.set_word(db.header_word(in.w, d, &DistrictAreaHeader::new_order_head), o_id + 1);

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
  return true;
}

}  // namespace

ProgramEnd DeliveryProgram::run(Transaction& txn) {
  output = {};
  TpccRows db(txn, layout_);
  for (int d = 1; d <= kDistricts; ++d) {
    const std::uint64_t o_id = lock_oldest(db, input, d);
    if (o_id == 0 || !deliver(db, input, d, o_id)) {
      ++output.skipped;
      continue;
    }
    ++output.delivered;
  }
  return ProgramEnd::commit;
}

}  // namespace hpcdb::tpcc
