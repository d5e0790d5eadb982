#include "hpcdb/data/ssb_generator.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/data/ssb_csv.hpp"
#include "hpcdb/data/ssb_dictionaries.hpp"
#include "hpcdb/data/ssb_scale.hpp"

namespace hpcdb::ssb {
namespace {

std::vector<LineorderRow> all_lines(const Generator& g) {
  std::vector<LineorderRow> lines;
  for (std::int64_t o = 0; o < g.scale().orders; ++o) g.order_lines(o, lines);
  return lines;
}

// Fields of one CSV line, honouring double quotes.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\n') {
      fields.back() += c;
    }
  }
  return fields;
}

TEST(SsbScale, SizesFollowTheBenchmark) {
  const Scale one = scale_of(1);
  EXPECT_EQ(one.customers, 30'000);
  EXPECT_EQ(one.suppliers, 2'000);
  EXPECT_EQ(one.parts, 200'000);
  EXPECT_EQ(one.orders, 1'500'000);
  EXPECT_EQ(scale_of(10).parts, 800'000);     // 200,000 x floor(1 + log2 10)
  EXPECT_EQ(scale_of(100).parts, 1'400'000);  // 200,000 x floor(1 + log2 100)
  EXPECT_EQ(scale_of(2).parts, 400'000);
  EXPECT_EQ(scale_of(100).customers, 3'000'000);
  EXPECT_EQ(scale_of(0.01).parts, 2'000);
  EXPECT_EQ(scale_of(0.01).orders, 15'000);
  EXPECT_THROW(scale_of(0), UsageError);
  EXPECT_THROW(scale_of(-1), UsageError);
  EXPECT_THROW(scale_of(0.001), UsageError);
  EXPECT_THROW(scale_of(5000), UsageError);
}

TEST(SsbScale, SparseOrderKeys) {
  EXPECT_EQ(order_key(0), 1);
  EXPECT_EQ(order_key(7), 8);
  EXPECT_EQ(order_key(8), 33);
  for (std::int64_t i = 0; i < 1000; ++i) {
    EXPECT_TRUE(is_order_key(order_key(i)));
    EXPECT_EQ(order_index_of_key(order_key(i)), i);
  }
  EXPECT_FALSE(is_order_key(9));
  EXPECT_FALSE(is_order_key(32));
}

TEST(SsbDictionaries, NamesFollowTheBenchmark) {
  EXPECT_EQ(city_name(0), "ALGERIA  0");
  EXPECT_EQ(city_name(231), "UNITED KI1");
  EXPECT_EQ(city_name(249), "UNITED ST9");
  EXPECT_EQ(manufacturer_name(0), "MFGR#1");
  EXPECT_EQ(category_name(1), "MFGR#12");
  EXPECT_EQ(category_name(24), "MFGR#55");
  EXPECT_EQ(brand_name(0), "MFGR#111");
  EXPECT_EQ(brand_name(260), "MFGR#2221");
  EXPECT_EQ(brand_name(278), "MFGR#2239");
  EXPECT_EQ(brand_name(999), "MFGR#5540");
  EXPECT_EQ(category_of_brand(278), 6);
  EXPECT_EQ(manufacturer_of_category(6), 1);
  EXPECT_EQ(std::string(region_names()[static_cast<std::size_t>(region_of_nation(*nation_code("UNITED STATES")))]), "AMERICA");
  EXPECT_EQ(std::string(region_names()[static_cast<std::size_t>(region_of_nation(*nation_code("CHINA")))]), "ASIA");
  EXPECT_EQ(std::string(region_names()[static_cast<std::size_t>(region_of_nation(*nation_code("EGYPT")))]), "MIDDLE EAST");
  EXPECT_EQ(part_types(), 150);
  EXPECT_EQ(part_type_name(0), "STANDARD ANODIZED TIN");
  EXPECT_EQ(part_containers().size(), 40u);
  std::map<int, int> per_region;
  for (int n = 0; n < kNations; ++n) ++per_region[region_of_nation(n)];
  for (int r = 0; r < kRegions; ++r) EXPECT_EQ(per_region[r], 5);
  EXPECT_FALSE(nation_code("ATLANTIS"));
  EXPECT_THROW(city_name(250), Error);
}

TEST(SsbCalendar, SevenYearsOfDays) {
  const CalendarDay first = calendar_day(0);
  EXPECT_EQ(first.datekey, 19920101);
  EXPECT_EQ(first.day_of_week, 4);  // a Wednesday
  EXPECT_EQ(date_text(first), "January 1, 1992");
  const CalendarDay last = calendar_day(kDays - 1);
  EXPECT_EQ(last.datekey, 19981231);
  EXPECT_EQ(day_name(last.day_of_week), "Thursday");
  EXPECT_TRUE(last.last_day_in_month);
  EXPECT_EQ(day_of_datekey(19920229), 59);   // 1992 is a leap year
  EXPECT_EQ(day_of_datekey(19930229), -1);
  EXPECT_EQ(day_of_datekey(19991231), -1);
  EXPECT_EQ(calendar_day(kOrderDays - 1).datekey, 19980802);
  EXPECT_EQ(year_month_name(71), "Dec1997");
  EXPECT_EQ(year_month_name(0), "Jan1992");
  for (int d = 0; d < kDays; ++d) {
    const CalendarDay c = calendar_day(d);
    ASSERT_EQ(day_of_datekey(c.datekey), d);
    ASSERT_EQ(datekey_of_day(d), c.datekey);
    ASSERT_EQ(c.week_of_year, (c.day_of_year - 1) / 7 + 1);
    ASSERT_EQ(c.weekday, c.day_of_week >= 2 && c.day_of_week <= 6);
    if (d > 0) {
      ASSERT_EQ(calendar_day(d - 1).day_of_week % 7 + 1, c.day_of_week);
    }
  }
}

TEST(SsbGenerator, SameSeedSameRowsOtherSeedOtherRows) {
  const Generator a(scale_of(0.01), 7);
  const Generator b(scale_of(0.01), 7);
  const Generator c(scale_of(0.01), 8);
  EXPECT_EQ(a.customer(5).address, b.customer(5).address);
  EXPECT_NE(a.customer(5).address, c.customer(5).address);
  std::vector<LineorderRow> x, y;
  a.order_lines(123, x);
  b.order_lines(123, y);
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].partkey, y[i].partkey);
  EXPECT_THROW(a.customer(0), Error);
  EXPECT_THROW(a.part(a.scale().parts + 1), Error);
  EXPECT_THROW(a.order_lines(a.scale().orders, x), Error);
}

TEST(SsbGenerator, DimensionRowsFollowTheRules) {
  const Generator g(scale_of(0.1), 42);
  std::set<int> segments, nations;
  for (std::int64_t k = 1; k <= g.scale().customers; ++k) {
    const CustomerRow r = g.customer(k);
    ASSERT_EQ(r.custkey, k);
    ASSERT_EQ(r.city / kCitiesPerNation, r.nation);
    ASSERT_EQ(r.region, region_of_nation(r.nation));
    ASSERT_EQ(r.name.size(), 18u);
    ASSERT_GE(r.address.size(), 10u);
    ASSERT_LE(r.address.size(), 25u);
    ASSERT_EQ(std::stoi(r.phone.substr(0, 2)), 10 + r.nation);
    segments.insert(r.mktsegment);
    nations.insert(r.nation);
  }
  EXPECT_EQ(segments.size(), 5u);
  EXPECT_EQ(nations.size(), 25u);
  std::set<int> brands;
  for (std::int64_t k = 1; k <= g.scale().parts; ++k) {
    const PartRow r = g.part(k);
    ASSERT_EQ(r.category / kCategoriesPerManufacturer, r.mfgr);
    ASSERT_EQ(category_of_brand(r.brand1), r.category);
    ASSERT_GE(r.size, 1);
    ASSERT_LE(r.size, 50);
    ASSERT_LE(r.name.size(), 22u);
    brands.insert(r.brand1);
  }
  EXPECT_EQ(brands.size(), 1000u);
  for (std::int64_t k = 1; k <= g.scale().suppliers; ++k) {
    const SupplierRow r = g.supplier(k);
    ASSERT_EQ(r.city / kCitiesPerNation, r.nation);
    ASSERT_EQ(r.region, region_of_nation(r.nation));
  }
}

TEST(SsbGenerator, LineorderFollowsTheRules) {
  const Generator g(scale_of(0.05), 42);
  const std::vector<LineorderRow> lines = all_lines(g);
  EXPECT_NEAR(static_cast<double>(lines.size()) / static_cast<double>(g.scale().orders), 4.0, 0.05);
  std::map<int, int> quantities, discounts;
  std::int64_t order_total = 0;
  std::size_t order_start = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LineorderRow& r = lines[i];
    ASSERT_TRUE(is_order_key(r.orderkey));
    ASSERT_GE(r.linenumber, 1);
    ASSERT_LE(r.linenumber, 7);
    ASSERT_NE(r.custkey % 3, 0);
    ASSERT_GE(r.custkey, 1);
    ASSERT_LE(r.custkey, g.scale().customers);
    ASSERT_GE(r.partkey, 1);
    ASSERT_LE(r.partkey, g.scale().parts);
    ASSERT_GE(r.suppkey, 1);
    ASSERT_LE(r.suppkey, g.scale().suppliers);
    const int day = day_of_datekey(r.orderdate);
    ASSERT_GE(day, 0);
    ASSERT_LT(day, kOrderDays);
    const int commit = day_of_datekey(r.commitdate);
    ASSERT_GE(commit - day, 30);
    ASSERT_LE(commit - day, 90);
    ASSERT_LE(r.tax, 8);
    ASSERT_LE(r.orderpriority, 4);
    ASSERT_LE(r.shipmode, 6);
    const std::int32_t price = Generator::retail_price(r.partkey);
    ASSERT_EQ(r.extendedprice, r.quantity * price);
    ASSERT_EQ(r.revenue, static_cast<std::int32_t>(std::int64_t{r.extendedprice} * (100 - r.discount) / 100));
    ASSERT_EQ(r.supplycost, price * 6 / 10);
    ++quantities[r.quantity];
    ++discounts[r.discount];
    if (r.linenumber == 1) {
      order_start = i;
      order_total = 0;
    }
    ASSERT_EQ(r.linenumber, i - order_start + 1);
    order_total += std::int64_t{r.extendedprice} * (100 - r.discount) * (100 + r.tax) / 10'000;
    if (i + 1 == lines.size() || lines[i + 1].linenumber == 1) {
      for (std::size_t j = order_start; j <= i; ++j) ASSERT_EQ(lines[j].ordtotalprice, order_total);
    }
  }
  EXPECT_EQ(quantities.size(), 50u);
  EXPECT_EQ(quantities.begin()->first, 1);
  EXPECT_EQ(discounts.size(), 11u);
  EXPECT_EQ(discounts.rbegin()->first, 10);
}

TEST(SsbCsv, HeadersMatchTheFieldsAndStringsAreQuoted) {
  const Generator g(scale_of(0.01), 42);
  std::string text;
  append_csv(text, g.customer(1));
  EXPECT_EQ(csv_fields(text).size(), csv_fields(csv_header(TableId::customer)).size());
  text.clear();
  append_csv(text, g.supplier(1));
  EXPECT_EQ(csv_fields(text).size(), csv_fields(csv_header(TableId::supplier)).size());
  text.clear();
  append_csv(text, g.part(1));
  EXPECT_EQ(csv_fields(text).size(), csv_fields(csv_header(TableId::part)).size());
  text.clear();
  std::vector<LineorderRow> lines;
  g.order_lines(0, lines);
  append_csv(text, lines[0]);
  const std::vector<std::string> lo = csv_fields(text);
  EXPECT_EQ(lo.size(), csv_fields(csv_header(TableId::lineorder)).size());
  EXPECT_EQ(lo[0], "1");
  EXPECT_EQ(std::stoll(lo[9]), lines[0].extendedprice);
  text.clear();
  append_date_csv(text, 0);
  EXPECT_EQ(text, "19920101,\"January 1, 1992\",\"Wednesday\",\"January\",1992,199201,\"Jan1992\",4,1,1,1,1,\"Winter\",0,0,1,1\n");
  EXPECT_EQ(csv_fields(text).size(), csv_fields(csv_header(TableId::date)).size());
  EXPECT_EQ(table_name(TableId::date), "date");
}

}  // namespace
}  // namespace hpcdb::ssb
