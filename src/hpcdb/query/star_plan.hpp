#pragma once
// A star query as the query engine runs it: a selection on the fact table,
// joins with dimension tables on their keys (each with its own selection and
// the attributes it contributes), a grouping by dimension attributes and one
// summed measure, and an ordering of the result. Plans name tables (by
// their batch-interface ids) and columns, never ranks.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hpcdb/storage/predicate.hpp"

namespace hpcdb {

struct DimensionJoin {
  std::uint32_t table = 0;
  std::uint16_t key = 0;          // the dimension's key column
  std::uint16_t fact_column = 0;  // the fact table's foreign key
  std::vector<Predicate> predicates;
  std::vector<std::uint16_t> attributes;  // carried to the grouping
};

// The summed measure, from fact columns.
enum class Measure : std::uint8_t { extendedprice_times_discount, revenue, revenue_minus_supplycost };

struct GroupColumn {
  std::size_t join = 0;  // index into StarPlan::joins
  std::uint16_t column = 0;
};

// One column of a result row: a grouping column or the measure.
struct OutputColumn {
  enum class Kind : std::uint8_t { group, measure } kind = Kind::group;
  std::size_t group = 0;  // index into StarPlan::group_by
  std::string name;
};

struct OrderTerm {
  std::size_t output = 0;  // index into StarPlan::output
  bool descending = false;
};

struct StarPlan {
  std::uint32_t fact_table = 0;
  std::vector<Predicate> fact_predicates;
  std::vector<DimensionJoin> joins;
  std::vector<GroupColumn> group_by;
  Measure measure = Measure::revenue;
  // Fact columns the measure reads (filled by the query definitions).
  std::vector<std::uint16_t> measure_columns;
  std::vector<OutputColumn> output;
  std::vector<OrderTerm> order_by;
};

// A query's answer before rendering: per group, its grouping values (codes
// and numbers as stored) and the sum of the measure; a query without
// grouping has exactly one row, whose sum is empty when no row matched
// (SQL's NULL).
struct GroupedRow {
  std::vector<std::int64_t> groups;
  std::optional<std::int64_t> sum;
};

// A rendered result value: SQL's NULL, a number, or text (vocabulary strings).
struct ResultValue {
  enum class Kind : std::uint8_t { null, number, text } kind = Kind::null;
  std::int64_t number = 0;
  std::string text;
  static ResultValue of(std::int64_t v) { return {Kind::number, v, {}}; }
  static ResultValue of(std::string v) { return {Kind::text, 0, std::move(v)}; }
  bool operator==(const ResultValue&) const = default;
};
using ResultRow = std::vector<ResultValue>;

}  // namespace hpcdb
