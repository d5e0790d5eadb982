#pragma once
// Turning a star query's groups into its result: values rendered (codes of a
// vocabulary become their strings), columns in SELECT order, rows in ORDER BY
// order (strings compared as strings, as SQL does).
#include <cstdint>
#include <functional>
#include <vector>

#include "hpcdb/query/star_plan.hpp"

namespace hpcdb {

// The rendered value of a dimension column's stored value.
using ValueRenderer = std::function<ResultValue(std::uint32_t table, std::uint16_t column, std::int64_t value)>;

std::vector<ResultRow> result_rows(const StarPlan& plan, const std::vector<GroupedRow>& groups, const ValueRenderer& render);

// Total order on rendered values: empty < numbers < text.
bool value_less(const ResultValue& a, const ResultValue& b);

}  // namespace hpcdb
