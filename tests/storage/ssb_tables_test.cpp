#include "hpcdb/storage/ssb_tables.hpp"

#include <gtest/gtest.h>

#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/storage/deployment.hpp"

namespace hpcdb::ssb {
namespace {

TEST(SsbTables, FragmentsHoldTheGeneratedRows) {
  const Generator g(scale_of(0.01), 42);
  const ColumnTable whole = load_fragment(g, TableId::lineorder, 0, g.scale().orders);
  std::size_t row = 0;
  for (int f = 0; f < 3; ++f) {
    const FragmentKeys keys = fragment_keys(g.scale().orders, f, 3);
    const ColumnTable part = load_fragment(g, TableId::lineorder, keys.first, keys.end);
    for (std::size_t r = 0; r < part.rows(); ++r, ++row) {
      for (std::size_t c = 0; c < part.columns(); ++c) ASSERT_EQ(part.value(r, c), whole.value(row, c));
    }
  }
  EXPECT_EQ(row, whole.rows());
  std::vector<LineorderRow> lines;
  g.order_lines(0, lines);
  EXPECT_EQ(whole.value(0, lo::extendedprice), lines[0].extendedprice);
  EXPECT_EQ(whole.value(0, lo::orderdate), lines[0].orderdate);

  const ColumnTable customers = load_fragment(g, TableId::customer, 0, g.scale().customers);
  EXPECT_EQ(customers.rows(), 300u);
  EXPECT_EQ(customers.text(4, c::name), g.customer(5).name);
  EXPECT_EQ(customers.value(4, c::city), g.customer(5).city);
  const ColumnTable dates = load_fragment(g, TableId::date, 0, kDays);
  EXPECT_EQ(dates.rows(), static_cast<std::size_t>(kDays));
  EXPECT_EQ(dates.value(0, d::datekey), 19920101);
  EXPECT_EQ(dates.text(0, d::date), "January 1, 1992");
  EXPECT_EQ(dates.value(71 * 30, d::year), calendar_day(71 * 30).year);
  EXPECT_EQ(table_schema(TableId::lineorder).columns.size(), 17u);
  EXPECT_EQ(load_fragment(g, TableId::part, 5, 5).rows(), 0u);
}

}  // namespace
}  // namespace hpcdb::ssb
