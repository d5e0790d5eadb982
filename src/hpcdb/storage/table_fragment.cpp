#include "hpcdb/storage/table_fragment.hpp"

namespace hpcdb {

TableFragment::TableFragment(std::uint32_t table_id, std::uint32_t fragment_index, ColumnTable data)
    : table(table_id), fragment(fragment_index), rows(std::move(data)) {
  ranges.reserve(rows.columns());
  for (std::size_t c = 0; c < rows.columns(); ++c) ranges.push_back(rows.range(c));
}

}  // namespace hpcdb
