#include "hpcdb/storage/table_fragment.hpp"

namespace hpcdb {

TableFragment::TableFragment(std::uint32_t table_id, std::uint32_t fragment_index, ColumnTable data)
    : table(table_id), fragment(fragment_index), rows(std::move(data)), stats(column_stats(rows)), zones(rows) {}

std::uint64_t TableFragment::apply_propagated_updates() {
  if (!master) return 0;
  const std::vector<RowUpdate> updates = master->take_updates();
  apply_updates(rows, stats, updates);
  for (const RowUpdate& u : updates) zones.widen(u.row, u.column, rows.value(u.row, u.column));
  updates_applied_ += updates.size();
  return updates.size();
}

}  // namespace hpcdb
