#include "hpcdb/query/ssb_queries.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "hpcdb/core/error.hpp"
#include "hpcdb/data/ssb_calendar.hpp"
#include "hpcdb/data/ssb_csv.hpp"
#include "hpcdb/data/ssb_dictionaries.hpp"
#include "hpcdb/storage/ssb_tables.hpp"

namespace hpcdb::ssb {
namespace {

constexpr std::uint32_t table_id(TableId t) { return static_cast<std::uint32_t>(t); }

std::int64_t draw(CounterRng& rng, std::int64_t low, std::int64_t high) {
  return low + static_cast<std::int64_t>(rng.next_u64() % static_cast<std::uint64_t>(high - low + 1));
}

// --- plan pieces

DimensionJoin join_date(std::vector<Predicate> predicates, std::vector<std::uint16_t> attributes) {
  return {table_id(TableId::date), d::datekey, lo::orderdate, std::move(predicates), std::move(attributes)};
}
DimensionJoin join_part(std::vector<Predicate> predicates, std::vector<std::uint16_t> attributes) {
  return {table_id(TableId::part), p::partkey, lo::partkey, std::move(predicates), std::move(attributes)};
}
DimensionJoin join_supplier(std::vector<Predicate> predicates, std::vector<std::uint16_t> attributes) {
  return {table_id(TableId::supplier), s::suppkey, lo::suppkey, std::move(predicates), std::move(attributes)};
}
DimensionJoin join_customer(std::vector<Predicate> predicates, std::vector<std::uint16_t> attributes) {
  return {table_id(TableId::customer), c::custkey, lo::custkey, std::move(predicates), std::move(attributes)};
}

Predicate in_codes(std::uint16_t column, std::vector<std::int64_t> codes) { return Predicate::in(column, codes); }

// p_brand1 between two brand names, as strings compare (what SQL does).
Predicate brands_between(int low, int high) {
  const std::string lo_name = brand_name(low);
  const std::string hi_name = brand_name(high);
  std::vector<std::int64_t> codes;
  for (int b = 0; b < kBrands; ++b) {
    const std::string n = brand_name(b);
    if (n >= lo_name && n <= hi_name) codes.push_back(b);
  }
  return in_codes(p::brand1, codes);
}

void set_measure(StarPlan& plan, Measure m) {
  plan.measure = m;
  switch (m) {
    case Measure::extendedprice_times_discount: plan.measure_columns = {lo::extendedprice, lo::discount}; break;
    case Measure::revenue: plan.measure_columns = {lo::revenue}; break;
    case Measure::revenue_minus_supplycost: plan.measure_columns = {lo::revenue, lo::supplycost}; break;
  }
}

OutputColumn group_output(std::size_t group, const char* name) { return {OutputColumn::Kind::group, group, name}; }
OutputColumn measure_output(const char* name) { return {OutputColumn::Kind::measure, 0, name}; }

// Flight 1: one date selection, fact selections on discount and quantity, no grouping.
StarPlan flight1(Predicate date_predicate, std::vector<Predicate> more_date, const QueryParameters& q) {
  StarPlan plan;
  plan.fact_table = table_id(TableId::lineorder);
  std::vector<Predicate> date{std::move(date_predicate)};
  for (Predicate& p : more_date) date.push_back(std::move(p));
  plan.joins = {join_date(std::move(date), {})};
  plan.fact_predicates = {Predicate::between(lo::discount, q.discount_low, q.discount_low + 2),
                          Predicate::between(lo::quantity, q.quantity_low, q.quantity_high)};
  set_measure(plan, Measure::extendedprice_times_discount);
  plan.output = {measure_output("revenue")};
  return plan;
}

// Flight 2: part and supplier selections, sum of revenue by year and brand.
StarPlan flight2(Predicate part_predicate, const QueryParameters& q) {
  StarPlan plan;
  plan.fact_table = table_id(TableId::lineorder);
  plan.joins = {join_date({}, {d::year}), join_part({std::move(part_predicate)}, {p::brand1}),
                join_supplier({Predicate::equals(s::region, q.supplier_region)}, {})};
  plan.group_by = {{0, d::year}, {1, p::brand1}};
  set_measure(plan, Measure::revenue);
  plan.output = {measure_output("sum(lo_revenue)"), group_output(0, "d_year"), group_output(1, "p_brand1")};
  plan.order_by = {{1, false}, {2, false}};
  return plan;
}

// Flight 3: customer, supplier and date selections, revenue by two places and year.
StarPlan flight3(Predicate customer, Predicate supplier, Predicate date, std::uint16_t customer_attribute,
                 std::uint16_t supplier_attribute, const char* customer_name, const char* supplier_name) {
  StarPlan plan;
  plan.fact_table = table_id(TableId::lineorder);
  plan.joins = {join_customer({std::move(customer)}, {customer_attribute}),
                join_supplier({std::move(supplier)}, {supplier_attribute}), join_date({std::move(date)}, {d::year})};
  plan.group_by = {{0, customer_attribute}, {1, supplier_attribute}, {2, d::year}};
  set_measure(plan, Measure::revenue);
  plan.output = {group_output(0, customer_name), group_output(1, supplier_name), group_output(2, "d_year"),
                 measure_output("revenue")};
  plan.order_by = {{2, false}, {3, true}};
  return plan;
}

Predicate cities(const QueryParameters& q, std::uint16_t column) {
  return in_codes(column, {q.cities[0], q.cities[1]});
}

// --- SQL pieces

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string flight1_sql(const std::string& date_condition, const QueryParameters& q) {
  std::string quantity = q.quantity_low <= 1 ? "lo_quantity < " + std::to_string(q.quantity_high + 1)
                                             : "lo_quantity between " + std::to_string(q.quantity_low) + " and " +
                                                   std::to_string(q.quantity_high);
  return "select sum(lo_extendedprice * lo_discount) as revenue from lineorder, \"date\" where lo_orderdate = d_datekey "
         "and " + date_condition + " and lo_discount between " + std::to_string(q.discount_low) + " and " +
         std::to_string(q.discount_low + 2) + " and " + quantity;
}

std::string flight2_sql(const std::string& part_condition, const QueryParameters& q) {
  return "select sum(lo_revenue), d_year, p_brand1 from lineorder, \"date\", part, supplier where lo_orderdate = "
         "d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey and " + part_condition +
         " and s_region = " + quoted(std::string(region_names()[static_cast<std::size_t>(q.supplier_region)])) +
         " group by d_year, p_brand1 order by d_year, p_brand1";
}

std::string flight3_sql(const std::string& select, const std::string& conditions) {
  return "select " + select + ", d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, \"date\" where "
         "lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey and " + conditions +
         " group by " + select + ", d_year order by d_year asc, revenue desc";
}

std::string flight4_sql(const std::string& select, const std::string& conditions) {
  return "select d_year, " + select + ", sum(lo_revenue - lo_supplycost) as profit from \"date\", customer, supplier, "
         "part, lineorder where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and "
         "lo_orderdate = d_datekey and " + conditions + " group by d_year, " + select + " order by d_year, " + select;
}

std::string region(int r) { return quoted(std::string(region_names()[static_cast<std::size_t>(r)])); }
std::string nation(int n) { return quoted(std::string(nation_names()[static_cast<std::size_t>(n)])); }
std::string years_between(const QueryParameters& q) {
  return "d_year >= " + std::to_string(q.year_low) + " and d_year <= " + std::to_string(q.year_high);
}
std::string two_years(const QueryParameters& q) {
  return "(d_year = " + std::to_string(q.year_low) + " or d_year = " + std::to_string(q.year_low + 1) + ")";
}
std::string two_cities(const char* column, const QueryParameters& q) {
  return std::string("(") + column + " = " + quoted(city_name(q.cities[0])) + " or " + column + " = " +
         quoted(city_name(q.cities[1])) + ")";
}
std::string two_manufacturers(const QueryParameters& q) {
  return "(p_mfgr = " + quoted(manufacturer_name(q.manufacturers[0])) + " or p_mfgr = " +
         quoted(manufacturer_name(q.manufacturers[1])) + ")";
}

}  // namespace

std::string label(QueryName q) {
  static constexpr const char* kLabels[] = {"Q1.1", "Q1.2", "Q1.3", "Q2.1", "Q2.2", "Q2.3", "Q3.1",
                                            "Q3.2", "Q3.3", "Q3.4", "Q4.1", "Q4.2", "Q4.3"};
  return kLabels[static_cast<int>(q)];
}

int flight(QueryName q) {
  const int i = static_cast<int>(q);
  return i < 3 ? 1 : i < 6 ? 2 : i < 10 ? 3 : 4;
}

QueryName parse_query_name(const std::string& text) {
  std::string t = text;
  if (!t.empty() && (t[0] == 'q' || t[0] == 'Q')) t = t.substr(1);
  for (int i = 0; i < kQueryNames; ++i) {
    if (label(static_cast<QueryName>(i)).substr(1) == t) return static_cast<QueryName>(i);
  }
  throw UsageError("there is no SSB query '" + text + "' (queries Q1.1-Q1.3, Q2.1-Q2.3, Q3.1-Q3.4, Q4.1-Q4.3)");
}

QueryParameters standard_parameters(QueryName name) {
  QueryParameters q;
  switch (name) {
    case QueryName::q1_1: q.year = 1993, q.discount_low = 1, q.quantity_low = 0, q.quantity_high = 24; break;
    case QueryName::q1_2: q.year_month = 199401, q.discount_low = 4, q.quantity_low = 26, q.quantity_high = 35; break;
    case QueryName::q1_3: q.year = 1994, q.week = 6, q.discount_low = 5, q.quantity_low = 26, q.quantity_high = 35; break;
    case QueryName::q2_1: q.category = 1, q.supplier_region = 1; break;                         // MFGR#12, AMERICA
    case QueryName::q2_2: q.brand_low = 260, q.brand_high = 267, q.supplier_region = 2; break;  // MFGR#2221-2228, ASIA
    case QueryName::q2_3: q.brand_low = q.brand_high = 278, q.supplier_region = 3; break;       // MFGR#2239, EUROPE
    case QueryName::q3_1: q.customer_region = q.supplier_region = 2, q.year_low = 1992, q.year_high = 1997; break;
    case QueryName::q3_2: q.customer_nation = q.supplier_nation = 24, q.year_low = 1992, q.year_high = 1997; break;
    case QueryName::q3_3: q.cities = {231, 235}, q.year_low = 1992, q.year_high = 1997; break;  // UNITED KI1, KI5
    case QueryName::q3_4: q.cities = {231, 235}, q.month_code = 71; break;                      // Dec1997
    case QueryName::q4_1: q.customer_region = q.supplier_region = 1, q.manufacturers = {0, 1}; break;
    case QueryName::q4_2:
      q.customer_region = q.supplier_region = 1, q.manufacturers = {0, 1}, q.year_low = 1997, q.year_high = 1998;
      break;
    case QueryName::q4_3:
      q.customer_region = 1, q.supplier_nation = 24, q.category = 3, q.year_low = 1997, q.year_high = 1998;
      break;
  }
  return q;
}

// Random constants keep each query's filter factor: years among the six full
// years of orders (1992-1997), windows of the benchmark's widths (3
// discounts, 10 quantities, 8 brands of one category, two cities of one
// nation, two manufacturers, two years), regions, nations, categories and
// brands uniform.
QueryParameters random_parameters(QueryName name, CounterRng& rng) {
  QueryParameters q = standard_parameters(name);
  const auto year = [&] { return static_cast<int>(draw(rng, 1992, 1997)); };
  q.discount_low = static_cast<int>(draw(rng, 0, 8));
  switch (name) {
    case QueryName::q1_1: q.year = year(); break;
    case QueryName::q1_2:
      q.year_month = year() * 100 + static_cast<int>(draw(rng, 1, 12));
      q.quantity_low = static_cast<int>(draw(rng, 1, 41)), q.quantity_high = q.quantity_low + 9;
      break;
    case QueryName::q1_3:
      q.year = year(), q.week = static_cast<int>(draw(rng, 1, 52));
      q.quantity_low = static_cast<int>(draw(rng, 1, 41)), q.quantity_high = q.quantity_low + 9;
      break;
    case QueryName::q2_1: q.category = static_cast<int>(draw(rng, 0, kCategories - 1)); [[fallthrough]];
    case QueryName::q2_3:
      if (name == QueryName::q2_3) q.brand_low = q.brand_high = static_cast<int>(draw(rng, 0, kBrands - 1));
      q.supplier_region = static_cast<int>(draw(rng, 0, kRegions - 1));
      break;
    case QueryName::q2_2: {
      const auto category = static_cast<int>(draw(rng, 0, kCategories - 1));
      const auto first = static_cast<int>(draw(rng, 10, 33));  // two-digit brand numbers: string order = number order
      q.brand_low = category * kBrandsPerCategory + first - 1;
      q.brand_high = q.brand_low + 7;
      q.supplier_region = static_cast<int>(draw(rng, 0, kRegions - 1));
      break;
    }
    case QueryName::q3_1:
    case QueryName::q3_2:
    case QueryName::q3_3:
    case QueryName::q3_4: {
      q.customer_region = static_cast<int>(draw(rng, 0, kRegions - 1));
      q.supplier_region = static_cast<int>(draw(rng, 0, kRegions - 1));
      q.customer_nation = static_cast<int>(draw(rng, 0, kNations - 1));
      q.supplier_nation = static_cast<int>(draw(rng, 0, kNations - 1));
      const auto n = static_cast<int>(draw(rng, 0, kNations - 1));
      const auto a = static_cast<int>(draw(rng, 0, 9));
      const auto b = (a + static_cast<int>(draw(rng, 1, 9))) % 10;
      q.cities = {n * kCitiesPerNation + a, n * kCitiesPerNation + b};
      q.year_low = static_cast<int>(draw(rng, 1992, 1993)), q.year_high = q.year_low + 5;
      q.month_code = static_cast<int>(draw(rng, 0, 6 * 12 - 1));
      break;
    }
    case QueryName::q4_1:
    case QueryName::q4_2:
    case QueryName::q4_3: {
      q.customer_region = static_cast<int>(draw(rng, 0, kRegions - 1));
      q.supplier_region = static_cast<int>(draw(rng, 0, kRegions - 1));
      const auto m = static_cast<int>(draw(rng, 0, kManufacturers - 1));
      q.manufacturers = {m, (m + static_cast<int>(draw(rng, 1, kManufacturers - 1))) % kManufacturers};
      q.year_low = year(), q.year_high = q.year_low + 1;
      q.supplier_nation = static_cast<int>(draw(rng, 0, kNations - 1));
      if (name == QueryName::q4_3) q.customer_region = region_of_nation(q.supplier_nation);
      q.category = static_cast<int>(draw(rng, 0, kCategories - 1));
      break;
    }
  }
  return q;
}

StarPlan plan_of(const SsbQuery& query) {
  const QueryParameters& q = query.parameters;
  switch (query.name) {
    case QueryName::q1_1: return flight1(Predicate::equals(d::year, q.year), {}, q);
    case QueryName::q1_2: return flight1(Predicate::equals(d::yearmonthnum, q.year_month), {}, q);
    case QueryName::q1_3:
      return flight1(Predicate::equals(d::weeknuminyear, q.week), {Predicate::equals(d::year, q.year)}, q);
    case QueryName::q2_1: return flight2(Predicate::equals(p::category, q.category), q);
    case QueryName::q2_2: return flight2(brands_between(q.brand_low, q.brand_high), q);
    case QueryName::q2_3: return flight2(Predicate::equals(p::brand1, q.brand_low), q);
    case QueryName::q3_1:
      return flight3(Predicate::equals(c::region, q.customer_region), Predicate::equals(s::region, q.supplier_region),
                     Predicate::between(d::year, q.year_low, q.year_high), c::nation, s::nation, "c_nation", "s_nation");
    case QueryName::q3_2:
      return flight3(Predicate::equals(c::nation, q.customer_nation), Predicate::equals(s::nation, q.supplier_nation),
                     Predicate::between(d::year, q.year_low, q.year_high), c::city, s::city, "c_city", "s_city");
    case QueryName::q3_3:
      return flight3(cities(q, c::city), cities(q, s::city), Predicate::between(d::year, q.year_low, q.year_high),
                     c::city, s::city, "c_city", "s_city");
    case QueryName::q3_4:
      return flight3(cities(q, c::city), cities(q, s::city), Predicate::equals(d::yearmonth, q.month_code), c::city,
                     s::city, "c_city", "s_city");
    case QueryName::q4_1:
    case QueryName::q4_2:
    case QueryName::q4_3: {
      StarPlan plan;
      plan.fact_table = table_id(TableId::lineorder);
      const bool q41 = query.name == QueryName::q4_1;
      const bool q43 = query.name == QueryName::q4_3;
      std::vector<Predicate> date;
      if (!q41) date.push_back(Predicate::between(d::year, q.year_low, q.year_low + 1));
      const Predicate supplier = q43 ? Predicate::equals(s::nation, q.supplier_nation)
                                     : Predicate::equals(s::region, q.supplier_region);
      const Predicate part = q43 ? Predicate::equals(p::category, q.category)
                                 : in_codes(p::mfgr, {q.manufacturers[0], q.manufacturers[1]});
      const std::uint16_t supplier_attribute = q43 ? s::city : s::nation;
      const std::uint16_t part_attribute = q43 ? p::brand1 : p::category;
      plan.joins = {join_date(std::move(date), {d::year}),
                    join_customer({Predicate::equals(c::region, q.customer_region)}, q41 ? std::vector<std::uint16_t>{c::nation}
                                                                                          : std::vector<std::uint16_t>{}),
                    join_supplier({supplier}, q41 ? std::vector<std::uint16_t>{} : std::vector<std::uint16_t>{supplier_attribute}),
                    join_part({part}, q41 ? std::vector<std::uint16_t>{} : std::vector<std::uint16_t>{part_attribute})};
      set_measure(plan, Measure::revenue_minus_supplycost);
      if (q41) {
        plan.group_by = {{0, d::year}, {1, c::nation}};
        plan.output = {group_output(0, "d_year"), group_output(1, "c_nation"), measure_output("profit")};
        plan.order_by = {{0, false}, {1, false}};
      } else {
        plan.group_by = {{0, d::year}, {2, supplier_attribute}, {3, part_attribute}};
        plan.output = {group_output(0, "d_year"), group_output(1, q43 ? "s_city" : "s_nation"),
                       group_output(2, q43 ? "p_brand1" : "p_category"), measure_output("profit")};
        plan.order_by = {{0, false}, {1, false}, {2, false}};
      }
      return plan;
    }
  }
  throw Error("unknown SSB query");
}

std::string sql_of(const SsbQuery& query) {
  const QueryParameters& q = query.parameters;
  switch (query.name) {
    case QueryName::q1_1: return flight1_sql("d_year = " + std::to_string(q.year), q);
    case QueryName::q1_2: return flight1_sql("d_yearmonthnum = " + std::to_string(q.year_month), q);
    case QueryName::q1_3:
      return flight1_sql("d_weeknuminyear = " + std::to_string(q.week) + " and d_year = " + std::to_string(q.year), q);
    case QueryName::q2_1: return flight2_sql("p_category = " + quoted(category_name(q.category)), q);
    case QueryName::q2_2:
      return flight2_sql("p_brand1 between " + quoted(brand_name(q.brand_low)) + " and " + quoted(brand_name(q.brand_high)), q);
    case QueryName::q2_3: return flight2_sql("p_brand1 = " + quoted(brand_name(q.brand_low)), q);
    case QueryName::q3_1:
      return flight3_sql("c_nation, s_nation", "c_region = " + region(q.customer_region) + " and s_region = " +
                                                   region(q.supplier_region) + " and " + years_between(q));
    case QueryName::q3_2:
      return flight3_sql("c_city, s_city", "c_nation = " + nation(q.customer_nation) + " and s_nation = " +
                                               nation(q.supplier_nation) + " and " + years_between(q));
    case QueryName::q3_3:
      return flight3_sql("c_city, s_city",
                         two_cities("c_city", q) + " and " + two_cities("s_city", q) + " and " + years_between(q));
    case QueryName::q3_4:
      return flight3_sql("c_city, s_city", two_cities("c_city", q) + " and " + two_cities("s_city", q) +
                                               " and d_yearmonth = " + quoted(year_month_name(q.month_code)));
    case QueryName::q4_1:
      return flight4_sql("c_nation", "c_region = " + region(q.customer_region) + " and s_region = " +
                                         region(q.supplier_region) + " and " + two_manufacturers(q));
    case QueryName::q4_2:
      return flight4_sql("s_nation, p_category", "c_region = " + region(q.customer_region) + " and s_region = " +
                                                     region(q.supplier_region) + " and " + two_years(q) + " and " +
                                                     two_manufacturers(q));
    case QueryName::q4_3:
      return flight4_sql("s_city, p_brand1", "c_region = " + region(q.customer_region) + " and s_nation = " +
                                                 nation(q.supplier_nation) + " and " + two_years(q) +
                                                 " and p_category = " + quoted(category_name(q.category)));
  }
  throw Error("unknown SSB query");
}

std::string describe_parameters(const SsbQuery& query) {
  // The SQL's WHERE clause after the join conditions says it all.
  const std::string sql = sql_of(query);
  const auto where = sql.find(" where ");
  const auto group = sql.find(" group by ");
  return sql.substr(where + 7, (group == std::string::npos ? sql.size() : group) - where - 7);
}

}  // namespace hpcdb::ssb
