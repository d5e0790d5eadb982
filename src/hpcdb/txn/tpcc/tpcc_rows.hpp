#pragma once
// TPC-C's rows as a transaction program sees them: where each row lives and
// which lock guards it, and the locking protocol around every access.
//  - read: S on the row's key (held to the end under serializable; released
//    right after the read under read committed), ancestors in IS;
//  - read_for_update / update / remove: X held to the end, ancestors in IX;
//    an update or a delete stamps the row with the transaction's id (its
//    version; a deleted row stays in its slot, marked deleted);
//  - insert: under serializable (and unless the testing fault
//    no-next-key-lock is in), first an instant X on the next key of the
//    index the row joins (for TPC-C's appends always the district's
//    supremum), so that a scan that reached the end of the index (and holds
//    that key) keeps its result; then X on the new key. Once past a next key
//    a transaction need not pass it again for later appends in front of it:
//    a scan reaches that key only through the keys it inserted, which it
//    holds until the end;
//  - structure words (tails, queue heads, index entries) are read and written
//    under locks the program holds, or peeked at without one to decide which
//    lock to take.
// Every read and write goes through the Transaction (undo log, history).
#include <cstdint>
#include <vector>

#include "hpcdb/txn/lock_hierarchy.hpp"
#include "hpcdb/txn/tpcc/tpcc_layout.hpp"
#include "hpcdb/txn/tpcc/tpcc_locks.hpp"
#include "hpcdb/txn/transaction.hpp"

namespace hpcdb::tpcc {

struct RowRef {
  std::uint32_t table;
  std::uint32_t partition;
  std::uint64_t key;
  DataRef at;
  LockId lock() const { return LockSpace::key_lock(table, partition, key); }
};

class TpccRows {
 public:
  TpccRows(Transaction& txn, const TpccLayout& layout) : txn_(txn), layout_(layout) {}

  RowRef warehouse(int w) const { return {kWarehouseTable, part(w), 0, {part(w), layout_.warehouse()}}; }
  RowRef district(int w, int d) const { return {kDistrictTable, part(w), district_key(d), {part(w), layout_.district(d)}}; }
  RowRef customer(int w, int d, int c) const {
    return {kCustomerTable, part(w), customer_key(d, c), {part(w), layout_.customer(d, c)}};
  }
  RowRef stock(int w, int i) const {
    return {kStockTable, part(w), static_cast<std::uint64_t>(i), {part(w), layout_.stock(i)}};
  }
  // Items live in the replica at the lock agent of warehouse `w`, locked under w.
  RowRef item(int w, int i) const;
  RowRef order(int w, int d, std::uint64_t o_id) const {
    return {kOrderTable, part(w), order_key(d, o_id), {part(w), layout_.order(d, o_id)}};
  }
  RowRef new_order(int w, int d, std::uint64_t o_id) const {
    return {kNewOrderTable, part(w), order_key(d, o_id), {part(w), layout_.new_order(d, o_id)}};
  }
  RowRef order_line(int w, int d, std::uint64_t slot, std::uint64_t o_id, int number) const {
    return {kOrderLineTable, part(w), order_line_key(d, o_id, number), {part(w), layout_.order_line(d, slot)}};
  }
  RowRef history(int w, int d, std::uint64_t slot) const {
    return {kHistoryTable, part(w), history_key(d, slot), {part(w), layout_.history(d, slot)}};
  }
  DataRef header_word(int w, int d, std::uint64_t DistrictAreaHeader::*field) const;
  DataRef first_line(int w, int d, std::uint64_t o_id) const { return {part(w), layout_.first_line(d, o_id)}; }
  DataRef latest_order(int w, int d, int c) const { return {part(w), layout_.latest_order(d, c)}; }

  template <class Row>
  Row read(const RowRef& r) {
    const bool asked = lock_key(txn_, r.table, r.partition, r.key, LockMode::S);
    const Row row = txn_.read<Row>(r.at);
    note_read(r, row.version);
    if (asked && !txn_.serializable()) txn_.unlock(r.lock());
    return row;
  }

  template <class Row>
  Row read_for_update(const RowRef& r) {
    lock_key(txn_, r.table, r.partition, r.key, LockMode::X);
    const Row row = txn_.read<Row>(r.at);
    note_read(r, row.version);
    return row;
  }

  // `row` as read for update, changed; its version is the one it replaces.
  template <class Row>
  void update(const RowRef& r, Row row) {
    if (txn_.recording_history()) txn_.note_write(r.lock(), row.version);
    row.version = txn_.id();
    txn_.write(r.at, row);
  }

  // Inserts `row` at the free slot `r`; `next_key` names the key after it in
  // its index (the district's supremum for appends), or 0 for a table no one scans.
  template <class Row>
  void insert(const RowRef& r, Row row, std::uint64_t next_key) {
    if (next_key != 0 && txn_.next_key_locking()) pass_next_key(r.table, r.partition, next_key);
    lock_key(txn_, r.table, r.partition, r.key, LockMode::X);
    if (txn_.recording_history()) txn_.note_write(r.lock(), txn_.read<TxnId>(r.at), WriteKind::insert);
    row.version = txn_.id();
    txn_.write(r.at, row);
  }

  // Deletes the row read for update as `row`, leaving `row` (marked deleted
  // by the caller) in its slot with this transaction's version.
  template <class Row>
  void remove(const RowRef& r, Row row) {
    if (txn_.recording_history()) txn_.note_write(r.lock(), row.version, WriteKind::remove);
    row.version = txn_.id();
    txn_.write(r.at, row);
  }

  // For the history check: this transaction read the keys [first, last] of
  // `table` in warehouse `w` as a whole (a scan); the rows it did not read were absent.
  void note_range_read(std::uint32_t table, int w, std::uint64_t first, std::uint64_t last) {
    if (txn_.recording_history()) {
      txn_.note_range_read(LockSpace::key_lock(table, part(w), first), LockSpace::key_lock(table, part(w), last));
    }
  }

  // A lock on an index key that no row stands for (a name, a supremum).
  void lock(std::uint32_t table, int w, std::uint64_t key, LockMode mode) {
    lock_key(txn_, table, part(w), key, mode);
  }
  // Takes and at once releases a lock: waits until no one holds a conflicting one.
  void lock_instant(std::uint32_t table, std::uint32_t partition, std::uint64_t key, LockMode mode);

  std::uint64_t word(DataRef at) { return txn_.read<std::uint64_t>(at); }
  void set_word(DataRef at, std::uint64_t value) { txn_.write(at, value); }
  std::uint64_t peek(DataRef at) { return txn_.peek_word(at); }

  // The customer of that last name in the middle of its run ordered by first
  // name (position ceil(n/2), 2.5.2.2); under serializable the name's index
  // entry is locked in S. Throws Error when no customer has the name.
  int customer_by_name(int w, int d, const char (&c_last)[16]);

  Transaction& transaction() { return txn_; }

 private:
  static std::uint32_t part(int w) { return static_cast<std::uint32_t>(w - 1); }
  void pass_next_key(std::uint32_t table, std::uint32_t partition, std::uint64_t key);
  void note_read(const RowRef& r, TxnId version) {
    if (txn_.recording_history()) txn_.note_read(r.lock(), version);
  }

  Transaction& txn_;
  const TpccLayout& layout_;
  std::vector<NameEntry> entries_;
  std::vector<LockId> passed_;  // next keys this transaction has passed
};

}  // namespace hpcdb::tpcc
