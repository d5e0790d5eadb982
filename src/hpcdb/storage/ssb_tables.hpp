#pragma once
// The SSB tables as the storage engine keeps them: their schemas (columns in
// the benchmark's order; strings of a fixed vocabulary as codes, free text as
// fixed-width text) and the loading of a fragment, a range of a table's keys
// (orders for lineorder, days for date), from the generator.
#include <cstdint>

#include "hpcdb/data/ssb_csv.hpp"
#include "hpcdb/data/ssb_generator.hpp"
#include "hpcdb/storage/column_table.hpp"

namespace hpcdb::ssb {

TableSchema table_schema(TableId table);
// Keys of a table at a scale: orders, customers, suppliers, parts or days.
std::int64_t table_keys(TableId table, const Scale& scale);

// Rows of keys [first, end) (0-based key indices) of `table`.
ColumnTable load_fragment(const Generator& generator, TableId table, std::int64_t first, std::int64_t end);

// Column indices of the tables, in schema order.
namespace lo {
enum : int { orderkey, linenumber, custkey, partkey, suppkey, orderdate, orderpriority, shippriority, quantity,
             extendedprice, ordtotalprice, discount, revenue, supplycost, tax, commitdate, shipmode };
}
namespace c {
enum : int { custkey, name, address, city, nation, region, phone, mktsegment };
}
namespace s {
enum : int { suppkey, name, address, city, nation, region, phone };
}
namespace p {
enum : int { partkey, name, mfgr, category, brand1, color, type, size, container };
}
namespace d {
enum : int { datekey, date, dayofweek, month, year, yearmonthnum, yearmonth, daynuminweek, daynuminmonth, daynuminyear,
             monthnuminyear, weeknuminyear, sellingseason, lastdayinweekfl, lastdayinmonthfl, holidayfl, weekdayfl };
}

}  // namespace hpcdb::ssb
