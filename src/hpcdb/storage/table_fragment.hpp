#pragma once
// A storage engine's share of one table: its rows by column, each column's
// value range and sample (for the query index), and the key-value copy of
// the same rows when the table also has the key-value backend here.
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/storage/column_stats.hpp"
#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/kv_store.hpp"

namespace hpcdb {

struct TableFragment {
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;  // index among the table's fragments
  ColumnTable rows;
  std::vector<ColumnStats> stats;  // by column
  std::unique_ptr<KvStore> master;  // the key-value copy, which takes updates (may be null)

  TableFragment(std::uint32_t table_id, std::uint32_t fragment_index, ColumnTable data);
};

}  // namespace hpcdb
