#include "hpcdb/data/ssb_csv.hpp"

#include <charconv>
#include <cstdint>

#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/data/ssb_dictionaries.hpp"

namespace hpcdb::ssb {
namespace {

class Line {
 public:
  explicit Line(std::string& out) : out_(out) {}
  Line& number(std::int64_t v) {
    separate();
    char text[24];
    out_.append(text, std::to_chars(text, text + sizeof(text), v).ptr);
    return *this;
  }
  Line& text(std::string_view v) {
    separate();
    out_ += '"';
    out_ += v;
    out_ += '"';
    return *this;
  }
  ~Line() { out_ += '\n'; }

 private:
  void separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  std::string& out_;
  bool first_ = true;
};

std::string_view pick(std::span<const std::string_view> names, int code) { return names[static_cast<std::size_t>(code)]; }

}  // namespace

std::string_view table_name(TableId table) {
  switch (table) {
    case TableId::lineorder: return "lineorder";
    case TableId::customer: return "customer";
    case TableId::supplier: return "supplier";
    case TableId::part: return "part";
    case TableId::date: return "date";
  }
  return "?";
}

std::string csv_header(TableId table) {
  switch (table) {
    case TableId::lineorder:
      return "lo_orderkey,lo_linenumber,lo_custkey,lo_partkey,lo_suppkey,lo_orderdate,lo_orderpriority,"
             "lo_shippriority,lo_quantity,lo_extendedprice,lo_ordtotalprice,lo_discount,lo_revenue,lo_supplycost,"
             "lo_tax,lo_commitdate,lo_shipmode\n";
    case TableId::customer:
      return "c_custkey,c_name,c_address,c_city,c_nation,c_region,c_phone,c_mktsegment\n";
    case TableId::supplier:
      return "s_suppkey,s_name,s_address,s_city,s_nation,s_region,s_phone\n";
    case TableId::part:
      return "p_partkey,p_name,p_mfgr,p_category,p_brand1,p_color,p_type,p_size,p_container\n";
    case TableId::date:
      return "d_datekey,d_date,d_dayofweek,d_month,d_year,d_yearmonthnum,d_yearmonth,d_daynuminweek,"
             "d_daynuminmonth,d_daynuminyear,d_monthnuminyear,d_weeknuminyear,d_sellingseason,"
             "d_lastdayinweekfl,d_lastdayinmonthfl,d_holidayfl,d_weekdayfl\n";
  }
  return "";
}

void append_csv(std::string& out, const CustomerRow& r) {
  Line(out)
      .number(r.custkey)
      .text(r.name)
      .text(r.address)
      .text(city_name(r.city))
      .text(pick(nation_names(), r.nation))
      .text(pick(region_names(), r.region))
      .text(r.phone)
      .text(pick(market_segments(), r.mktsegment));
}

void append_csv(std::string& out, const SupplierRow& r) {
  Line(out)
      .number(r.suppkey)
      .text(r.name)
      .text(r.address)
      .text(city_name(r.city))
      .text(pick(nation_names(), r.nation))
      .text(pick(region_names(), r.region))
      .text(r.phone);
}

void append_csv(std::string& out, const PartRow& r) {
  Line(out)
      .number(r.partkey)
      .text(r.name)
      .text(manufacturer_name(r.mfgr))
      .text(category_name(r.category))
      .text(brand_name(r.brand1))
      .text(pick(part_colors(), r.color))
      .text(part_type_name(r.type))
      .number(r.size)
      .text(pick(part_containers(), r.container));
}

void append_csv(std::string& out, const LineorderRow& r) {
  Line(out)
      .number(r.orderkey)
      .number(r.linenumber)
      .number(r.custkey)
      .number(r.partkey)
      .number(r.suppkey)
      .number(r.orderdate)
      .text(pick(order_priorities(), r.orderpriority))
      .number(r.shippriority)
      .number(r.quantity)
      .number(r.extendedprice)
      .number(r.ordtotalprice)
      .number(r.discount)
      .number(r.revenue)
      .number(r.supplycost)
      .number(r.tax)
      .number(r.commitdate)
      .text(pick(ship_modes(), r.shipmode));
}

void append_date_csv(std::string& out, int day) {
  const CalendarDay d = calendar_day(day);
  Line(out)
      .number(d.datekey)
      .text(date_text(d))
      .text(day_name(d.day_of_week))
      .text(month_name(d.month))
      .number(d.year)
      .number(d.year_month_num())
      .text(year_month_name(d.month_code()))
      .number(d.day_of_week)
      .number(d.day_of_month)
      .number(d.day_of_year)
      .number(d.month)
      .number(d.week_of_year)
      .text(selling_season_name(d.selling_season))
      .number(d.last_day_in_week ? 1 : 0)
      .number(d.last_day_in_month ? 1 : 0)
      .number(d.holiday ? 1 : 0)
      .number(d.weekday ? 1 : 0);
}

}  // namespace hpcdb::ssb
