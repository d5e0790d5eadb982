#pragma once
// A storage engine's share of one table: its rows by column, the value
// range of each column (for the query index), and the key-value copy of the
// same rows when the table also has the key-value backend here.
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/kv_store.hpp"

namespace hpcdb {

struct TableFragment {
  std::uint32_t table = 0;
  std::uint32_t fragment = 0;  // index among the table's fragments
  ColumnTable rows;
  std::vector<ColumnRange> ranges;  // by column
  std::unique_ptr<KvStore> master;  // the key-value copy, which takes updates (may be null)

  TableFragment(std::uint32_t table_id, std::uint32_t fragment_index, ColumnTable data);
};

}  // namespace hpcdb
