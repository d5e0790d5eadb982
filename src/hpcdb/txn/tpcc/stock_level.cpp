#include "hpcdb/txn/tpcc/stock_level.hpp"

#include <algorithm>

#include "hpcdb/txn/tpcc/tpcc_rows.hpp"

namespace hpcdb::tpcc {

void StockLevelProgram::scan_line(TpccRows& db, const StockLevelInput& in, std::uint64_t slot, std::uint64_t lowest,
                                  std::uint64_t next) {
  // Which key the slot holds decides the lock; the row is read again under it.
  const auto peeked = db.transaction().read<OrderLine>(db.order_line(in.w, in.d, slot, 0, 0).at);
  const auto o_id = static_cast<std::uint64_t>(peeked.ol_o_id);
  if (o_id < lowest || o_id >= next) return;  // a line of an order newer than the district said
  const auto line = db.read<OrderLine>(db.order_line(in.w, in.d, slot, o_id, peeked.ol_number));
  if (line.ol_o_id == 0) return;  // its order rolled back meanwhile
  items_.push_back(line.ol_i_id);
  ++output.lines;
}

ProgramEnd StockLevelProgram::run(Transaction& txn) {
  const StockLevelInput& in = input;
  output = {};
  items_.clear();
  TpccRows db(txn, layout_);
  const auto next = static_cast<std::uint64_t>(db.read<District>(db.district(in.w, in.d)).d_next_o_id);
  const std::uint64_t lowest = next > 20 ? next - 20 : 1;
  // A range scan of the order-line index from the first line of order
  // `lowest` to its end; under serializable, reaching the end locks the key
  // after it (the supremum) and reads the end again, scanning on if lines
  // were appended meanwhile.
  std::uint64_t slot = db.word(db.first_line(in.w, in.d, lowest));
  for (;;) {
    const std::uint64_t end = db.peek(db.header_word(in.w, in.d, &DistrictAreaHeader::order_line_tail));
    for (; slot < end; ++slot) scan_line(db, in, slot, lowest, next);
    if (!txn.next_key_locking()) break;
    db.lock(kOrderLineTable, in.w, order_line_supremum(in.d), LockMode::S);
    if (db.peek(db.header_word(in.w, in.d, &DistrictAreaHeader::order_line_tail)) == end) break;
  }
  db.note_range_read(kOrderLineTable, in.w, order_line_key(in.d, lowest, 0), order_line_key(in.d, next, 0) - 1);
  std::sort(items_.begin(), items_.end());
  items_.erase(std::unique(items_.begin(), items_.end()), items_.end());
  for (int i : items_) {
    if (db.read<Stock>(db.stock(in.w, i)).s_quantity < in.threshold) ++output.low_stock;
  }
  return ProgramEnd::commit;
}

}  // namespace hpcdb::tpcc
