#include "hpcdb/query/result_rows.hpp"

#include <algorithm>

namespace hpcdb {

bool value_less(const ResultValue& a, const ResultValue& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.kind == ResultValue::Kind::number) return a.number < b.number;
  if (a.kind == ResultValue::Kind::text) return a.text < b.text;
  return false;
}

std::vector<ResultRow> result_rows(const StarPlan& plan, const std::vector<GroupedRow>& groups, const ValueRenderer& render) {
  std::vector<ResultRow> rows;
  rows.reserve(groups.size());
  for (const GroupedRow& g : groups) {
    ResultRow row;
    for (const OutputColumn& out : plan.output) {
      if (out.kind == OutputColumn::Kind::measure) {
        row.push_back(g.sum ? ResultValue::of(*g.sum) : ResultValue{});
      } else {
        const GroupColumn& gc = plan.group_by[out.group];
        row.push_back(render(plan.joins[gc.join].table, gc.column, g.groups[out.group]));
      }
    }
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const ResultRow& a, const ResultRow& b) {
    for (const OrderTerm& t : plan.order_by) {
      const ResultValue& x = a[t.output];
      const ResultValue& y = b[t.output];
      if (value_less(x, y)) return !t.descending;
      if (value_less(y, x)) return t.descending;
    }
    return false;
  });
  return rows;
}

}  // namespace hpcdb
