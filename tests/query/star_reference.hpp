#pragma once
// An independent answer to a star plan for tests: every fact row checked
// against the plan's predicates, joined through plain maps of the dimension
// rows that pass their selections, grouped in an ordered map. Slow and
// simple; nothing shared with the engine's shared scans and joins except
// the final rendering and ordering (result_rows).
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "hpcdb/query/result_rows.hpp"
#include "hpcdb/query/star_plan.hpp"
#include "hpcdb/storage/column_table.hpp"

namespace hpcdb::testing {

inline bool passes(const ColumnTable& t, std::size_t row, const std::vector<Predicate>& predicates) {
  for (const Predicate& p : predicates) {
    if (!p.matches(t.value(row, p.column))) return false;
  }
  return true;
}

inline std::vector<ResultRow> reference_answer(const StarPlan& plan, const std::map<std::uint32_t, const ColumnTable*>& tables,
                                               const ValueRenderer& render) {
  const ColumnTable& fact = *tables.at(plan.fact_table);
  std::vector<std::unordered_map<std::int64_t, std::size_t>> joined(plan.joins.size());
  for (std::size_t j = 0; j < plan.joins.size(); ++j) {
    const DimensionJoin& join = plan.joins[j];
    const ColumnTable& dim = *tables.at(join.table);
    for (std::size_t r = 0; r < dim.rows(); ++r) {
      if (passes(dim, r, join.predicates)) joined[j][dim.value(r, join.key)] = r;
    }
  }
  std::map<std::vector<std::int64_t>, std::int64_t> groups;
  bool any = false;
  for (std::size_t r = 0; r < fact.rows(); ++r) {
    if (!passes(fact, r, plan.fact_predicates)) continue;
    std::vector<std::size_t> rows(plan.joins.size());
    bool joins = true;
    for (std::size_t j = 0; j < plan.joins.size() && joins; ++j) {
      const auto it = joined[j].find(fact.value(r, plan.joins[j].fact_column));
      joins = it != joined[j].end();
      if (joins) rows[j] = it->second;
    }
    if (!joins) continue;
    std::vector<std::int64_t> key;
    for (const GroupColumn& g : plan.group_by) key.push_back(tables.at(plan.joins[g.join].table)->value(rows[g.join], g.column));
    const std::int64_t a = fact.value(r, plan.measure_columns[0]);
    std::int64_t value = a;
    if (plan.measure == Measure::extendedprice_times_discount) value = a * fact.value(r, plan.measure_columns[1]);
    if (plan.measure == Measure::revenue_minus_supplycost) value = a - fact.value(r, plan.measure_columns[1]);
    groups[key] += value;
    any = true;
  }
  std::vector<GroupedRow> grouped;
  if (plan.group_by.empty()) {
    GroupedRow row;
    if (any) row.sum = groups[{}];
    grouped.push_back(row);
  } else {
    for (const auto& [key, sum] : groups) grouped.push_back({key, sum});
  }
  return result_rows(plan, grouped, render);
}

// Rows as a sorted list, to compare answers whatever the order of ties.
inline std::vector<ResultRow> sorted_rows(std::vector<ResultRow> rows) {
  std::sort(rows.begin(), rows.end(), [](const ResultRow& a, const ResultRow& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), value_less);
  });
  return rows;
}

}  // namespace hpcdb::testing
