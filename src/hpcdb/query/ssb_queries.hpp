#pragma once
// The 13 queries of the Star Schema Benchmark (four flights), each with its
// constants: the published ones (standard_parameters) or random ones drawn
// from the benchmark's ranges so that each query keeps its filter factor
// (random_parameters). Every query instance gives the plan the query engine
// runs (plan_of) and the same query in SQL (sql_of), for DuckDB.
#include <array>
#include <cstdint>
#include <string>

#include "hpcdb/data/counter_rng.hpp"
#include "hpcdb/query/star_plan.hpp"

namespace hpcdb::ssb {

enum class QueryName : std::uint8_t { q1_1, q1_2, q1_3, q2_1, q2_2, q2_3, q3_1, q3_2, q3_3, q3_4, q4_1, q4_2, q4_3 };
constexpr int kQueryNames = 13;
constexpr int kFlights = 4;
std::string label(QueryName q);  // "Q1.1"
int flight(QueryName q);         // 1..4
// "Q2.3" or "2.3" (any case); UsageError otherwise.
QueryName parse_query_name(const std::string& text);

// The constants of one query instance (each query uses some of them).
// Strings of the benchmark are held as the codes of ssb_dictionaries.hpp.
struct QueryParameters {
  int year = 1993;                 // Q1.1, Q1.3: d_year = year
  int year_low = 1992;             // Q3.1-Q3.3: d_year between year_low and year_high;
  int year_high = 1997;            // Q4.2, Q4.3: d_year in (year_low, year_low + 1)
  int year_month = 199401;         // Q1.2: d_yearmonthnum
  int month_code = 71;             // Q3.4: d_yearmonth (0 = "Jan1992" .. 83 = "Dec1998")
  int week = 6;                    // Q1.3: d_weeknuminyear
  int discount_low = 1;            // Q1.x: lo_discount between discount_low and discount_low + 2
  int quantity_low = 0;            // Q1.1: lo_quantity < quantity_high + 1;
  int quantity_high = 24;          // Q1.2, Q1.3: between quantity_low and quantity_high
  int category = 1;                // Q2.1, Q4.3: p_category (code)
  int brand_low = 0;               // Q2.2: p_brand1 between (codes, same category); Q2.3: p_brand1 = brand_low
  int brand_high = 0;
  int customer_region = 2;         // Q3.1, Q4.x: c_region
  int supplier_region = 2;         // Q2.x, Q3.1, Q4.1, Q4.2: s_region
  int customer_nation = 24;        // Q3.2: c_nation
  int supplier_nation = 24;        // Q3.2, Q4.3: s_nation
  std::array<int, 2> cities{231, 235};  // Q3.3, Q3.4: c_city and s_city in (both)
  std::array<int, 2> manufacturers{0, 1};  // Q4.1, Q4.2: p_mfgr in (both)
};

struct SsbQuery {
  QueryName name = QueryName::q1_1;
  QueryParameters parameters;
};

QueryParameters standard_parameters(QueryName q);
QueryParameters random_parameters(QueryName q, CounterRng& rng);

StarPlan plan_of(const SsbQuery& query);
std::string sql_of(const SsbQuery& query);
// The constants in one line, for reports ("d_year=1993 discount=1..3 quantity<25").
std::string describe_parameters(const SsbQuery& query);

}  // namespace hpcdb::ssb
