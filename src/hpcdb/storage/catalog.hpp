#pragma once
// What a storage engine needs to know about the tables it may hold: their
// names, how many keys they are split by, their primary keys and how to
// load the rows of a key range. The query engine's plans name these tables.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hpcdb/storage/column_table.hpp"
#include "hpcdb/storage/deployment.hpp"
#include "hpcdb/storage/kv_store.hpp"

namespace hpcdb {

struct CatalogTable {
  std::string name;
  TableSchema schema;
  std::int64_t keys = 0;  // fragments split [0, keys)
  PrimaryKey primary_key;
  int cluster_column = -1;  // the rows are kept in this column's order (-1: as loaded)
  std::function<ColumnTable(FragmentKeys)> load;
};

struct Catalog {
  std::vector<CatalogTable> tables;  // table id = index
  std::vector<std::string> names() const;
  int table_id(const std::string& name) const;  // UsageError if unknown
};

}  // namespace hpcdb
