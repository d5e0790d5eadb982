#include "hpcdb/query/ssb_catalog.hpp"

#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/data/ssb_dictionaries.hpp"
#include "hpcdb/storage/ssb_tables.hpp"

namespace hpcdb::ssb {
namespace {

PrimaryKey primary_key(TableId t) {
  if (t == TableId::lineorder) return {lo::orderkey, lo::linenumber, 8};  // 1-7 lines per order
  return {0, -1, 1};
}

ResultValue text(std::string s) { return ResultValue::of(std::move(s)); }
ResultValue listed(std::span<const std::string_view> names, std::int64_t v) {
  return text(std::string(names[static_cast<std::size_t>(v)]));
}

}  // namespace

Catalog catalog(const Generator& generator) {
  Catalog c;
  for (int t = 0; t < kTables; ++t) {
    const auto id = static_cast<TableId>(t);
    CatalogTable table;
    table.name = std::string(table_name(id));
    table.schema = table_schema(id);
    table.keys = table_keys(id, generator.scale());
    table.primary_key = primary_key(id);
    // The fact table in order-date order: zone maps then skip the rows a
    // date range rules out (most queries select by date).
    if (id == TableId::lineorder) table.cluster_column = lo::orderdate;
    table.load = [&generator, id](FragmentKeys keys) { return load_fragment(generator, id, keys.first, keys.end); };
    c.tables.push_back(std::move(table));
  }
  return c;
}

ResultValue render_value(std::uint32_t table, std::uint16_t column, std::int64_t v) {
  switch (static_cast<TableId>(table)) {
    case TableId::customer:
      if (column == c::city) return text(city_name(static_cast<int>(v)));
      if (column == c::nation) return listed(nation_names(), v);
      if (column == c::region) return listed(region_names(), v);
      if (column == c::mktsegment) return listed(market_segments(), v);
      break;
    case TableId::supplier:
      if (column == s::city) return text(city_name(static_cast<int>(v)));
      if (column == s::nation) return listed(nation_names(), v);
      if (column == s::region) return listed(region_names(), v);
      break;
    case TableId::part:
      if (column == p::mfgr) return text(manufacturer_name(static_cast<int>(v)));
      if (column == p::category) return text(category_name(static_cast<int>(v)));
      if (column == p::brand1) return text(brand_name(static_cast<int>(v)));
      if (column == p::color) return listed(part_colors(), v);
      if (column == p::type) return text(part_type_name(static_cast<int>(v)));
      if (column == p::container) return listed(part_containers(), v);
      break;
    case TableId::date:
      if (column == d::dayofweek) return text(day_name(static_cast<int>(v)));
      if (column == d::month) return text(month_name(static_cast<int>(v)));
      if (column == d::yearmonth) return text(year_month_name(static_cast<int>(v)));
      if (column == d::sellingseason) return text(selling_season_name(static_cast<int>(v)));
      break;
    case TableId::lineorder:
      if (column == lo::orderpriority) return listed(order_priorities(), v);
      if (column == lo::shipmode) return listed(ship_modes(), v);
      break;
  }
  return ResultValue::of(v);
}

}  // namespace hpcdb::ssb
