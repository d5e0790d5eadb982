#pragma once
// A storage engine's share of one table: its rows by column, each column's
// value range and sample (for planning a scan), the zone map of its rows,
// and the key-value copy of the same rows when the table also has the
// key-value backend here (the master copy, which takes updates; the scan
// copy applies them before each cycle: a scan sees a prefix of the update
// log, and counts how long).
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/storage/column_stats.hpp"
#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/kv_store.hpp"
#include "hpcdb/storage/zone_map.hpp"

namespace hpcdb {

struct TableFragment {
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;  // index among the table's fragments
  ColumnTable rows;
  std::vector<ColumnStats> stats;  // by column
  ZoneMap zones;
  std::unique_ptr<KvStore> master;  // the key-value copy, which takes updates (may be null)

  TableFragment(std::uint32_t table_id, std::uint32_t fragment_index, ColumnTable data);
  // Applies the updates the master recorded since the last call; returns how many.
  std::uint64_t apply_propagated_updates();
  // Updates applied to the scan copy so far (the scans' version of the rows).
  std::uint64_t updates_applied() const { return updates_applied_; }

 private:
  std::uint64_t updates_applied_ = 0;
};

}  // namespace hpcdb
