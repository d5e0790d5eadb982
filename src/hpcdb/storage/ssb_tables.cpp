#include "hpcdb/storage/ssb_tables.hpp"

#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/ssb_calendar.hpp"

namespace hpcdb::ssb {
namespace {

ColumnSpec integer(const char* name, ColumnType type) { return {name, type, 0}; }
ColumnSpec text(const char* name, std::uint16_t width) { return {name, ColumnType::text, width}; }
constexpr ColumnType u8 = ColumnType::u8;
constexpr ColumnType u16 = ColumnType::u16;
constexpr ColumnType i32 = ColumnType::i32;

// Writes one field of every line into its column (the schema's type).
template <class T, class Field>
void put_column(ColumnTable& t, int column, std::size_t first, const std::vector<LineorderRow>& lines, Field field) {
  T* out = reinterpret_cast<T*>(t.data(static_cast<std::size_t>(column))) + first;
  for (std::size_t i = 0; i < lines.size(); ++i) out[i] = static_cast<T>(field(lines[i]));
}

void put_lines(ColumnTable& t, const std::vector<LineorderRow>& lines) {
  const std::size_t first = t.add_rows(lines.size());
  using R = const LineorderRow&;
  put_column<std::int32_t>(t, lo::orderkey, first, lines, [](R r) { return r.orderkey; });
  put_column<std::uint8_t>(t, lo::linenumber, first, lines, [](R r) { return r.linenumber; });
  put_column<std::int32_t>(t, lo::custkey, first, lines, [](R r) { return r.custkey; });
  put_column<std::int32_t>(t, lo::partkey, first, lines, [](R r) { return r.partkey; });
  put_column<std::int32_t>(t, lo::suppkey, first, lines, [](R r) { return r.suppkey; });
  put_column<std::int32_t>(t, lo::orderdate, first, lines, [](R r) { return r.orderdate; });
  put_column<std::uint8_t>(t, lo::orderpriority, first, lines, [](R r) { return r.orderpriority; });
  put_column<std::uint8_t>(t, lo::shippriority, first, lines, [](R r) { return r.shippriority; });
  put_column<std::uint8_t>(t, lo::quantity, first, lines, [](R r) { return r.quantity; });
  put_column<std::int32_t>(t, lo::extendedprice, first, lines, [](R r) { return r.extendedprice; });
  put_column<std::int32_t>(t, lo::ordtotalprice, first, lines, [](R r) { return r.ordtotalprice; });
  put_column<std::uint8_t>(t, lo::discount, first, lines, [](R r) { return r.discount; });
  put_column<std::int32_t>(t, lo::revenue, first, lines, [](R r) { return r.revenue; });
  put_column<std::int32_t>(t, lo::supplycost, first, lines, [](R r) { return r.supplycost; });
  put_column<std::uint8_t>(t, lo::tax, first, lines, [](R r) { return r.tax; });
  put_column<std::int32_t>(t, lo::commitdate, first, lines, [](R r) { return r.commitdate; });
  put_column<std::uint8_t>(t, lo::shipmode, first, lines, [](R r) { return r.shipmode; });
}

void put_customer(ColumnTable& t, const CustomerRow& r) {
  const std::size_t row = t.add_rows(1);
  t.set_value(row, c::custkey, r.custkey);
  t.set_text(row, c::name, r.name);
  t.set_text(row, c::address, r.address);
  t.set_value(row, c::city, r.city);
  t.set_value(row, c::nation, r.nation);
  t.set_value(row, c::region, r.region);
  t.set_text(row, c::phone, r.phone);
  t.set_value(row, c::mktsegment, r.mktsegment);
}

void put_supplier(ColumnTable& t, const SupplierRow& r) {
  const std::size_t row = t.add_rows(1);
  t.set_value(row, s::suppkey, r.suppkey);
  t.set_text(row, s::name, r.name);
  t.set_text(row, s::address, r.address);
  t.set_value(row, s::city, r.city);
  t.set_value(row, s::nation, r.nation);
  t.set_value(row, s::region, r.region);
  t.set_text(row, s::phone, r.phone);
}

void put_part(ColumnTable& t, const PartRow& r) {
  const std::size_t row = t.add_rows(1);
  t.set_value(row, p::partkey, r.partkey);
  t.set_text(row, p::name, r.name);
  t.set_value(row, p::mfgr, r.mfgr);
  t.set_value(row, p::category, r.category);
  t.set_value(row, p::brand1, r.brand1);
  t.set_value(row, p::color, r.color);
  t.set_value(row, p::type, r.type);
  t.set_value(row, p::size, r.size);
  t.set_value(row, p::container, r.container);
}

void put_date(ColumnTable& t, int day) {
  const CalendarDay cd = calendar_day(day);
  const std::size_t row = t.add_rows(1);
  t.set_value(row, d::datekey, cd.datekey);
  t.set_text(row, d::date, date_text(cd));
  t.set_value(row, d::dayofweek, cd.day_of_week);
  t.set_value(row, d::month, cd.month);
  t.set_value(row, d::year, cd.year);
  t.set_value(row, d::yearmonthnum, cd.year_month_num());
  t.set_value(row, d::yearmonth, cd.month_code());
  t.set_value(row, d::daynuminweek, cd.day_of_week);
  t.set_value(row, d::daynuminmonth, cd.day_of_month);
  t.set_value(row, d::daynuminyear, cd.day_of_year);
  t.set_value(row, d::monthnuminyear, cd.month);
  t.set_value(row, d::weeknuminyear, cd.week_of_year);
  t.set_value(row, d::sellingseason, cd.selling_season);
  t.set_value(row, d::lastdayinweekfl, cd.last_day_in_week ? 1 : 0);
  t.set_value(row, d::lastdayinmonthfl, cd.last_day_in_month ? 1 : 0);
  t.set_value(row, d::holidayfl, cd.holiday ? 1 : 0);
  t.set_value(row, d::weekdayfl, cd.weekday ? 1 : 0);
}

}  // namespace

TableSchema table_schema(TableId table) {
  switch (table) {
    case TableId::lineorder:
      return {"lineorder",
              {integer("lo_orderkey", i32), integer("lo_linenumber", u8), integer("lo_custkey", i32),
               integer("lo_partkey", i32), integer("lo_suppkey", i32), integer("lo_orderdate", i32),
               integer("lo_orderpriority", u8), integer("lo_shippriority", u8), integer("lo_quantity", u8),
               integer("lo_extendedprice", i32), integer("lo_ordtotalprice", i32), integer("lo_discount", u8),
               integer("lo_revenue", i32), integer("lo_supplycost", i32), integer("lo_tax", u8),
               integer("lo_commitdate", i32), integer("lo_shipmode", u8)}};
    case TableId::customer:
      return {"customer",
              {integer("c_custkey", i32), text("c_name", 18), text("c_address", 25), integer("c_city", u8),
               integer("c_nation", u8), integer("c_region", u8), text("c_phone", 15), integer("c_mktsegment", u8)}};
    case TableId::supplier:
      return {"supplier",
              {integer("s_suppkey", i32), text("s_name", 18), text("s_address", 25), integer("s_city", u8),
               integer("s_nation", u8), integer("s_region", u8), text("s_phone", 15)}};
    case TableId::part:
      return {"part",
              {integer("p_partkey", i32), text("p_name", 22), integer("p_mfgr", u8), integer("p_category", u8),
               integer("p_brand1", u16), integer("p_color", u8), integer("p_type", u8), integer("p_size", u8),
               integer("p_container", u8)}};
    case TableId::date:
      return {"date",
              {integer("d_datekey", i32), text("d_date", 18), integer("d_dayofweek", u8), integer("d_month", u8),
               integer("d_year", u16), integer("d_yearmonthnum", i32), integer("d_yearmonth", u8),
               integer("d_daynuminweek", u8), integer("d_daynuminmonth", u8), integer("d_daynuminyear", u16),
               integer("d_monthnuminyear", u8), integer("d_weeknuminyear", u8), integer("d_sellingseason", u8),
               integer("d_lastdayinweekfl", u8), integer("d_lastdayinmonthfl", u8), integer("d_holidayfl", u8),
               integer("d_weekdayfl", u8)}};
  }
  throw Error("unknown SSB table");
}

std::int64_t table_keys(TableId table, const Scale& scale) {
  switch (table) {
    case TableId::lineorder: return scale.orders;
    case TableId::customer: return scale.customers;
    case TableId::supplier: return scale.suppliers;
    case TableId::part: return scale.parts;
    case TableId::date: return kDays;
  }
  return 0;
}

ColumnTable load_fragment(const Generator& g, TableId table, std::int64_t first, std::int64_t end) {
  ColumnTable t(table_schema(table));
  if (end <= first) return t;
  const auto keys = static_cast<std::size_t>(end - first);
  if (table == TableId::lineorder) {
    t.reserve(keys * 4 + keys / 8 + 64);
    std::vector<LineorderRow> lines;
    constexpr std::int64_t kOrdersPerStep = 4096;
    for (std::int64_t o = first; o < end; o += kOrdersPerStep) {
      lines.clear();
      for (std::int64_t k = o; k < std::min(end, o + kOrdersPerStep); ++k) g.order_lines(k, lines);
      put_lines(t, lines);
    }
    return t;
  }
  t.reserve(keys);
  for (std::int64_t k = first; k < end; ++k) {
    switch (table) {
      case TableId::customer: put_customer(t, g.customer(k + 1)); break;
      case TableId::supplier: put_supplier(t, g.supplier(k + 1)); break;
      case TableId::part: put_part(t, g.part(k + 1)); break;
      case TableId::date: put_date(t, static_cast<int>(k)); break;
      case TableId::lineorder: break;
    }
  }
  return t;
}

}  // namespace hpcdb::ssb
