#pragma once
// The key-value backend: a table's rows as fixed-width records in one array,
// with a hash index on the primary key (open addressing, linear probing), for
// point lookups and updates. It is the table's master copy: every update it
// applies is also recorded, for the shared-scan copy of the same rows
// (row i here is row i there) to apply before its next scan (replication by
// update propagation: scans see an update from their next cycle on).
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "hpcdb/storage/column_stats.hpp"
#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/result_format.hpp"

namespace hpcdb {

// How a row's primary key is formed: key = value(first) x multiplier +
// value(second) (second < 0: key = value(first)).
struct PrimaryKey {
  int first = 0;
  int second = -1;
  std::int64_t multiplier = 1;
  std::int64_t of(const ColumnTable& table, std::size_t row) const;
};

struct RowUpdate {
  std::size_t row = 0;
  std::uint16_t column = 0;
  std::int64_t value = 0;
};

// An update as a log names it: by the row's primary key.
struct LoggedUpdate {
  std::int64_t key = 0;
  std::uint16_t column = 0;
  std::int64_t value = 0;
};

class KvStore {
 public:
  // Copies every row of `table`; Error when two rows share a key.
  KvStore(const ColumnTable& table, PrimaryKey key);

  const TableSchema& schema() const { return schema_; }
  const RecordLayout& record() const { return record_; }  // every column, in order
  std::size_t rows() const { return rows_; }
  // The row with `key`, if any.
  std::optional<std::size_t> find(std::int64_t key) const;
  const std::byte* record(std::size_t row) const { return records_.data() + row * record_.record_bytes; }
  // Sets one integer column of the row with `key`; false when there is none.
  // Error for the key columns or a text column.
  bool update(std::int64_t key, std::uint16_t column, std::int64_t value);
  // The updates since the last call, oldest first (thread-safe).
  std::vector<RowUpdate> take_updates();
  // Also keeps every update in a log, in the order take_updates() hands
  // them out (for checking what scans saw).
  void keep_log(bool on) { keep_log_ = on; }
  std::vector<LoggedUpdate> log() const;
  std::size_t bytes() const;  // records and index

 private:
  TableSchema schema_;
  PrimaryKey key_;
  RecordLayout record_;
  std::size_t rows_ = 0;
  std::vector<std::byte> records_;
  std::vector<std::int64_t> slot_keys_;
  std::vector<std::uint32_t> slot_rows_;  // row + 1; 0 = empty slot
  std::uint64_t slot_mask_ = 0;
  mutable std::mutex updates_mutex_;
  std::vector<RowUpdate> updates_;
  bool keep_log_ = false;
  std::vector<LoggedUpdate> log_;
};

// Applies propagated updates to the shared-scan copy of the rows.
void apply_updates(ColumnTable& table, std::vector<ColumnStats>& stats, const std::vector<RowUpdate>& updates);

}  // namespace hpcdb
