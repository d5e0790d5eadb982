#include "hpcdb/storage/table_fragment.hpp"

namespace hpcdb {

TableFragment::TableFragment(std::uint32_t table_id, std::uint32_t fragment_index, ColumnTable data)
    : table(table_id), fragment(fragment_index), rows(std::move(data)), stats(column_stats(rows)) {}

}  // namespace hpcdb
